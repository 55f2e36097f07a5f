import { backend } from "./backend";
import { frontend } from "./frontend";
import { mathHard } from "./math-hard";
import type { BenchmarkModule } from "./module";

// The registry: every benchmark the studio knows, by the name stored with its tasks, runs and
// queues. Adding a benchmark is one folder beside these and one line here (and one in
// components/benchmarks/index.ts for its views); ARCHITECTURE.md says how.

const registry = {
  backend,
  frontend,
  "math-hard": mathHard,
} satisfies Record<string, BenchmarkModule>;

/** A benchmark's name: the registry's keys, written nowhere else. */
export type Benchmark = keyof typeof registry;

/** Each module's own type (its run options' schema), for the run config's union by benchmark. */
export type BenchmarkModules = typeof registry;

/** Every module read as the interface, so an optional piece reads the same for a benchmark without it. */
export const benchmarks: Record<Benchmark, BenchmarkModule> = registry;

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
