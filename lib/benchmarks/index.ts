import { backend } from "./backend";
import { frontend } from "./frontend";
import type { BenchmarkModule } from "./module";

// The registry: every benchmark the studio knows, by the name stored with its tasks, runs and
// queues. Adding a benchmark is one folder beside these and one line here (and one in
// components/benchmarks/index.ts for its views); ARCHITECTURE.md says how.

export const benchmarks = {
  backend,
  frontend,
} satisfies Record<string, BenchmarkModule>;

/** A benchmark's name: the registry's keys, written nowhere else. */
export type Benchmark = keyof typeof benchmarks;

/** The registered names, in the registry's order (forms, filters and the Leaderboard list them so). */
export const BENCHMARKS = Object.keys(benchmarks) as [Benchmark, ...Benchmark[]];

export function isBenchmark(name: unknown): name is Benchmark {
  return typeof name === "string" && Object.hasOwn(benchmarks, name);
}

/** The module of a stored or typed name; an unknown name is an error that lists the known ones. */
export function benchmarkOf(name: string): BenchmarkModule {
  if (!isBenchmark(name)) throw new Error(`no benchmark "${name}": the studio knows ${BENCHMARKS.join(", ")}`);
  return benchmarks[name];
}

export type { BenchmarkModule } from "./module";
