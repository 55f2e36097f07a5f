import { z } from "zod";
import { lastProposedPage } from "../../colbench/episode";
import { zodProblems } from "../../colbench/jsonl";
import { extractHtml } from "../../colbench/protocol";
import { profileLabel } from "../../colbench/render-profile";
import { RENDER_ID } from "../label";
import type { BenchmarkModule } from "../module";
import { frontendScoreCli } from "./score-cli";
import { COLBENCH_DATASET, colbenchFile } from "../colbench-dataset";
import { frontendOptionsSchema, frontendRunOptions, runEmbedder } from "./run-options";
import { scoreMismatches } from "./score-mismatch";
import { STARTER_PAGE } from "./starter";

// ColBench's frontend benchmark: the agent writes an HTML/Tailwind page; the simulated human
// compares screenshots of it and of the target page; the reward is the CLIP similarity of the two.

const text = z.string().trim().min(1, "must be a non-empty string");

export const frontendTaskSchema = z.object({
  problem_description: text,
  ground_truth: text,
});

/** A render id a score's details hold under `key`; null when absent or not a render's id. */
function renderIn(details: unknown, key: "answerRender" | "targetRender"): string | null {
  const id = ((details ?? {}) as Record<string, unknown>)[key];
  return typeof id === "string" && RENDER_ID.test(id) ? id : null;
}

/** Two samples make a trajectory pair when their similarities differ by at least this. */
export const FRONTEND_MIN_GAP = 0.1;

export const frontend = {
  name: "frontend",
  title: "frontend (web page)",
  answer: { kind: "page", language: "html", noun: "page" },
  task: {
    schema: frontendTaskSchema,
    parse(record) {
      const parsed = frontendTaskSchema.safeParse(record);
      if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
      return {
        ok: true,
        task: {
          benchmark: "frontend",
          problemDescription: parsed.data.problem_description,
          groundTruth: parsed.data.ground_truth,
          hiddenInformation: null,
          testCases: null,
        },
      };
    },
    official: (task) => ({ problem_description: task.problemDescription, ground_truth: task.groundTruth }),
    // The fallback for trajectory records: a frontend task is the two common fields and nothing else.
    recognizes: (record) => Object.keys(record).every((key) => key === "problem_description" || key === "ground_truth"),
  },
  official: {
    dataset: COLBENCH_DATASET,
    file: (split) => colbenchFile("frontend", split),
    optional: true,
    absentNote:
      "the benchmark's frontend tasks are built from HuggingFaceM4/WebSight (v0.2) by the paper's code rather than published in this dataset; import such a file with `colbench import FILE --benchmark frontend`",
  },
  episode: { replyLimit: 1000, pageOf: extractHtml, finalAnswer: lastProposedPage },
  starter: () => STARTER_PAGE,
  proposalOf: (turn) => (turn.role === "agent" ? (turn.html ?? null) : null),
  reward: {
    name: "Similarity",
    measure: "similarity",
    format: (reward) => reward.toFixed(3),
    sentence: (reward) => `similarity ${reward.toFixed(3)}`,
    scoredBy: runEmbedder,
    hasSuccess: false,
  },
  pairRule: {
    name: `frontend: every two samples whose similarities differ by at least ${FRONTEND_MIN_GAP}, the higher chosen`,
    what: `two samples of one task whose similarities differ by ${FRONTEND_MIN_GAP} or more`,
    pairs(rewards) {
      const pairs: Array<[number, number]> = [];
      for (let j = 0; j < rewards.length; j++) {
        for (let j2 = j + 1; j2 < rewards.length; j2++) {
          const a = rewards[j]!;
          const b = rewards[j2]!;
          if (Math.abs(a - b) < FRONTEND_MIN_GAP) continue;
          pairs.push(a > b ? [j, j2] : [j2, j]);
        }
      }
      return pairs;
    },
  },
  hidden: {
    summary: "the target page and its render",
    label: (task, details) => ({ targetRender: renderIn(details, "targetRender"), groundTruth: task.groundTruth }),
  },
  labelSide: (details) => ({ render: renderIn(details, "answerRender") }),
  runOptions: frontendRunOptions,
  scoreCli: frontendScoreCli,
  prepareRun: (asked) => import(/* turbopackIgnore: true */ "./prepare-run").then((m) => m.prepareFrontendRun(asked)),
  describeRun(config) {
    const options = frontendOptionsSchema.parse(config);
    return [
      `render profile: ${profileLabel(options.render)}`,
      ...(options.embedderReason ? [`frontend similarity: ${options.embedderReason}`] : []),
    ];
  },
  scoreMismatches,
  // The published evaluate_html.py main() re-scores each answer by opening `answer` as a screenshot
  // path, and a missing path silently becomes a black image; the export's `answer` is the page's HTML.
  officialExportNotice:
    "colbench export: note for the published evaluate_html.py: its pair code (trajectory pairs from each entry's stored reward) runs on this file; " +
    "its main() re-scoring does not: it opens each `answer` as a screenshot path, and here `answer` is the page's HTML, so every answer would silently score as a black image. " +
    "Use the studio's scores (`reward`), or `colbench score` to re-score.\n",
  runtime: () => import(/* turbopackIgnore: true */ "./runtime").then((m) => m.frontendRuntime),
} satisfies BenchmarkModule<typeof frontendRunOptions>;
