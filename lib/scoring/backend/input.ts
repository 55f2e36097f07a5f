import { decodeTaskLine } from "../../colbench/jsonl";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { FieldProblem } from "../../colbench/tasks";
import type { BackendScoreInput } from "./scorer";

// One line to score: an official trajectory {task: {ground_truth, test_cases, ...},
// dialogue_history?, answer} or a bare {ground_truth, test_cases, answer}. Other fields pass through.

const testCases = z
  .record(z.string().min(1, "test names must be non-empty"), z.string())
  .refine((cases) => Object.keys(cases).length > 0, "must hold at least one test");

const taskFields = {
  ground_truth: z.string().min(1, "must be a non-empty string"),
  test_cases: testCases,
};

// null: the agent never gave an answer (it scores 0 like an empty one).
const answer = z.string().nullable();

const trajectoryLine = z.looseObject({
  task: z.looseObject(taskFields),
  dialogue_history: z.array(z.unknown()).optional(),
  answer,
});

const bareLine = z.looseObject({ ...taskFields, answer });

export interface BackendScoreLine {
  /** The decoded line, to be written back out with results added. */
  record: Record<string, unknown>;
  input: BackendScoreInput;
  /** Same task, same key: ground truth and tests hashed. */
  taskKey: string;
}

export type BackendLineParse = { ok: true; line: BackendScoreLine } | { ok: false; problems: FieldProblem[] };

export function backendTaskKey(groundTruth: string, testCases: Record<string, string>): string {
  return createHash("sha256")
    .update(JSON.stringify([groundTruth, Object.entries(testCases)]))
    .digest("hex");
}

export function parseBackendScoreLine(text: string): BackendLineParse {
  const line = decodeTaskLine(text, trajectoryLine, bareLine);
  if (!line.ok) return line;
  const task = line.wrapped ? line.data.task : line.data;
  const input: BackendScoreInput = {
    groundTruth: task.ground_truth,
    testCases: task.test_cases,
    answer: line.data.answer ?? "",
  };
  return {
    ok: true,
    line: { record: line.record, input, taskKey: backendTaskKey(input.groundTruth, input.testCases) },
  };
}
