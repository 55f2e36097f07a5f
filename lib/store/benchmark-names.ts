import { BENCHMARKS, benchmarkOf, isBenchmark, type Benchmark } from "../benchmarks";

// The benchmark columns (Task, Run, Queue) are text, so a new benchmark needs no migration. The
// registry is the check instead: every write goes through `benchmarkToWrite`, and reads narrow what
// they get. A row whose benchmark this studio does not know (written by a newer studio sharing the
// database, or restored from its backup) is left out of every list and count (`knownBenchmark` in
// their where), so listings keep working; reading such a row by id or name is an error that says so.

/** A name about to be stored: one the registry knows, or an error listing the names it does. */
export function benchmarkToWrite(name: string): Benchmark {
  return benchmarkOf(name).name as Benchmark;
}

/** Where-filter that keeps rows of registered benchmarks only (lists, counts, rankings). */
export function knownBenchmark(): { in: Benchmark[] } {
  return { in: [...BENCHMARKS] };
}

/** The registered names as one SQL array parameter, for raw queries' `= ANY(...)`. */
export function knownBenchmarkNames(): string[] {
  return [...BENCHMARKS];
}

/** A stored row's benchmark, narrowed; `what` names the row ("run r1", "task 12") in the error. */
export function storedBenchmark(name: string, what: string): Benchmark {
  if (isBenchmark(name)) return name;
  throw new Error(
    `${what} is of benchmark "${name}", which this studio does not know (it knows ${BENCHMARKS.join(", ")}): open it with the studio that made it`,
  );
}
