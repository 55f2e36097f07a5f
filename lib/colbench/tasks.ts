import { createHash } from "node:crypto";
import { z } from "zod";
import { decodeObjectLine, zodProblems, type FieldProblem } from "./jsonl";

// Line problems are defined with the JSONL reader; task parsing reports them.
export { formatProblem, type FieldProblem } from "./jsonl";

// The two official ColBench task formats, as published with the SWEET-RL paper.

export const BENCHMARKS = ["backend", "frontend"] as const;
export type Benchmark = (typeof BENCHMARKS)[number];

const text = z.string().trim().min(1, "must be a non-empty string");

export const backendTaskSchema = z.object({
  problem_description: text,
  ground_truth: text,
  test_cases: z
    .record(z.string().min(1, "test names must be non-empty"), text)
    .refine((cases) => Object.keys(cases).length > 0, "must hold at least one test"),
  hidden_information: z.string().optional(),
});

export const frontendTaskSchema = z.object({
  problem_description: text,
  ground_truth: text,
});

export type BackendTaskRecord = z.infer<typeof backendTaskSchema>;
export type FrontendTaskRecord = z.infer<typeof frontendTaskSchema>;

/** A test as stored: kept as a list because the database's JSON type reorders object keys. */
export interface TestCase {
  name: string;
  expression: string;
}

/** A task in the studio's own shape, independent of where it is stored. */
export interface TaskInput {
  benchmark: Benchmark;
  problemDescription: string;
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: TestCase[] | null;
}

export type ParseResult = { ok: true; task: TaskInput } | { ok: false; problems: FieldProblem[] };


/** Validates one decoded record of either official format. */
export function parseTaskRecord(record: unknown, benchmark: Benchmark): ParseResult {
  if (benchmark === "backend") {
    const parsed = backendTaskSchema.safeParse(record);
    if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
    const r = parsed.data;
    return {
      ok: true,
      task: {
        benchmark,
        problemDescription: r.problem_description,
        groundTruth: r.ground_truth,
        hiddenInformation: r.hidden_information ?? null,
        testCases: Object.entries(r.test_cases).map(([name, expression]) => ({ name, expression })),
      },
    };
  }
  const parsed = frontendTaskSchema.safeParse(record);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  return {
    ok: true,
    task: {
      benchmark,
      problemDescription: parsed.data.problem_description,
      groundTruth: parsed.data.ground_truth,
      hiddenInformation: null,
      testCases: null,
    },
  };
}

/** Decodes and validates one JSONL line. */
export function parseTaskLine(line: string, benchmark: Benchmark): ParseResult {
  const decoded = decodeObjectLine(line);
  return decoded.ok ? parseTaskRecord(decoded.record, benchmark) : decoded;
}

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

/** Back to the official record shape (for exports and trajectories). */
export function toOfficialRecord(task: TaskInput): BackendTaskRecord | FrontendTaskRecord {
  if (task.benchmark === "frontend") {
    return { problem_description: task.problemDescription, ground_truth: task.groundTruth };
  }
  const record: BackendTaskRecord = {
    problem_description: task.problemDescription,
    ground_truth: task.groundTruth,
    test_cases: Object.fromEntries((task.testCases ?? []).map((t) => [t.name, t.expression])),
  };
  if (task.hiddenInformation !== null) record.hidden_information = task.hiddenInformation;
  return record;
}
