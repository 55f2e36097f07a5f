import { decodeTaskLine } from "../../colbench/jsonl";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { FieldProblem } from "../../colbench/tasks";

// One line to score: a trajectory {task: {ground_truth, problem_description, ...},
// dialogue_history?, answer} or a bare {ground_truth, answer}. The answer is the agent's final
// HTML, or, in the official evaluation's format, the path of a screenshot of it (PNG); null
// (no answer) scores the benchmark's fallback, a black 224x224 image. Other fields pass through.

const groundTruth = z.string().min(1, "must be a non-empty string");
const answer = z.string().nullable();

const trajectoryLine = z.looseObject({
  task: z.looseObject({ ground_truth: groundTruth, problem_description: z.string().optional() }),
  dialogue_history: z.array(z.unknown()).optional(),
  answer,
});
const bareLine = z.looseObject({ ground_truth: groundTruth, answer });

export type FrontendAnswer =
  { kind: "html"; html: string } | { kind: "image"; path: string } | { kind: "none"; reason: string };

export interface FrontendScoreLine {
  /** The decoded line, written back out with results added. */
  record: Record<string, unknown>;
  groundTruth: string;
  answer: FrontendAnswer;
  /** Task identity for matching runs: sha256 of the ground truth. */
  taskKey: string;
}

export type FrontendLineParse = { ok: true; line: FrontendScoreLine } | { ok: false; problems: FieldProblem[] };

export function frontendTaskKey(groundTruth: string): string {
  return createHash("sha256").update(groundTruth).digest("hex");
}

const IMAGE_PATH = /^[^<>\n]{1,4096}\.(png|jpe?g|webp|gif)$/i;

/**
 * Reads an answer: HTML, an image path (resolved against `baseDir`, the JSONL file's folder, then
 * the working directory; a missing file is no answer, as in the official evaluation), or null.
 */
export function classifyAnswer(value: string | null, baseDir: string): FrontendAnswer | FieldProblem {
  if (value === null) return { kind: "none", reason: "no answer" };
  const trimmed = value.trim();
  if (!IMAGE_PATH.test(trimmed)) return { kind: "html", html: value };
  if (!/\.png$/i.test(trimmed))
    return { field: "answer", message: `only PNG screenshots can be scored, not ${path.extname(trimmed)}` };
  const candidates = path.isAbsolute(trimmed) ? [trimmed] : [path.resolve(baseDir, trimmed), path.resolve(trimmed)];
  const found = candidates.find((p) => existsSync(p));
  return found ? { kind: "image", path: found } : { kind: "none", reason: `no such image: ${trimmed}` };
}

export function parseFrontendScoreLine(text: string, baseDir: string): FrontendLineParse {
  const line = decodeTaskLine(text, trajectoryLine, bareLine);
  if (!line.ok) return line;
  const gt = line.wrapped ? line.data.task.ground_truth : line.data.ground_truth;
  const classified = classifyAnswer(line.data.answer, baseDir);
  if ("field" in classified) return { ok: false, problems: [classified] };
  return {
    ok: true,
    line: { record: line.record, groundTruth: gt, answer: classified, taskKey: frontendTaskKey(gt) },
  };
}
