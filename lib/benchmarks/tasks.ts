import { decodeObjectLine } from "../colbench/jsonl";
import type { ParseResult, TaskInput } from "../colbench/tasks";
import { BENCHMARKS, benchmarkOf, benchmarks } from "./index";

// Task records of every registered benchmark, in and out, through each benchmark's own format.

/** Validates one decoded record of a benchmark's official format. */
export function parseTaskRecord(record: unknown, benchmark: string): ParseResult {
  return benchmarkOf(benchmark).task.parse(record);
}

/** Decodes and validates one JSONL line. */
export function parseTaskLine(line: string, benchmark: string): ParseResult {
  const decoded = decodeObjectLine(line);
  return decoded.ok ? parseTaskRecord(decoded.record, benchmark) : decoded;
}

/** Back to the benchmark's official record shape (for exports and trajectories). */
export function toOfficialRecord(task: TaskInput): Record<string, unknown> {
  return benchmarkOf(task.benchmark).task.official(task);
}

/** Which benchmark a task record inside a trajectory belongs to: the first, in registry order, that recognizes it. */
export function guessBenchmark(record: Record<string, unknown>): string | null {
  return BENCHMARKS.find((name) => benchmarks[name].task.recognizes(record)) ?? null;
}
