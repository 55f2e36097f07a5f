import { createHash } from "node:crypto";
import type { FieldProblem } from "./jsonl";

// Line problems are defined with the JSONL reader; task parsing reports them.
export { formatProblem, type FieldProblem } from "./jsonl";

// A task in the studio's shape, whatever its benchmark. Each benchmark's record format, and which
// benchmarks there are, live in lib/benchmarks/.

/** A test as stored: kept as a list because the database's JSON type reorders object keys. */
export interface TestCase {
  name: string;
  expression: string;
}

/** A task in the studio's own shape, independent of where it is stored. */
export interface TaskInput {
  /** The benchmark's registered name (lib/benchmarks). */
  benchmark: string;
  problemDescription: string;
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: TestCase[] | null;
}

export type ParseResult = { ok: true; task: TaskInput } | { ok: false; problems: FieldProblem[] };

/** Identity of a task's content: the same task imported twice (from any file) hashes the same. */
export function taskContentHash(task: TaskInput): string {
  const canonical = JSON.stringify([
    task.benchmark,
    task.problemDescription,
    task.groundTruth,
    task.hiddenInformation,
    task.testCases?.map((t) => [t.name, t.expression]) ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
