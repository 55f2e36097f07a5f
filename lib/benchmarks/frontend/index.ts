import { z } from "zod";
import { lastProposedPage } from "../../colbench/episode";
import { zodProblems } from "../../colbench/jsonl";
import { extractHtml } from "../../colbench/protocol";
import { EMBEDDER_NAMES } from "../../colbench/run-config";
import { LEGACY_RENDER_PROFILE, profileLabel, renderProfileSchema } from "../../colbench/render-profile";
import type { BenchmarkModule } from "../module";
import { COLBENCH_DATASET, colbenchFile } from "../colbench-dataset";
import { STARTER_PAGE } from "./starter";

// ColBench's frontend benchmark: the agent writes an HTML/Tailwind page; the simulated human
// compares screenshots of it and of the target page; the reward is the CLIP similarity of the two.

const text = z.string().trim().min(1, "must be a non-empty string");

export const frontendTaskSchema = z.object({
  problem_description: text,
  ground_truth: text,
});

/** Two samples make a trajectory pair when their similarities differ by at least this. */
export const FRONTEND_MIN_GAP = 0.1;

/** The run options only frontend runs have: how pages are rendered and which embedder scores them. */
export const frontendRunOptions = {
  /** Which image embedder scores similarity (recorded with every score too). */
  embedder: z.enum(EMBEDDER_NAMES).default("default"),
  /**
   * How pages are rendered for the simulator and the score (profile, engine, placeholders). Runs
   * stored before profiles existed were rendered as studio-1280 in Chromium.
   */
  render: renderProfileSchema.default(LEGACY_RENDER_PROFILE),
  /** The published placeholder photo's file, when the profile's placeholders are that photo. */
  placeholderPhoto: z.string().optional(),
  /** Earlier profiles whose scores `colbench rescore` replaced, oldest first. */
  rescored: z.array(z.object({ from: renderProfileSchema, at: z.string() })).optional(),
  /** clip-vit-b32: the folder or hub id its weights come from (resolved through the Hugging Face cache). */
  clipPath: z.string().optional(),
  /** Why the run scores with that embedder (chosen when it was made, so a resume never switches). */
  embedderReason: z.string().optional(),
};

const frontendOptionsSchema = z.object(frontendRunOptions);

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
        task: { benchmark: "frontend", problemDescription: parsed.data.problem_description, groundTruth: parsed.data.ground_truth, hiddenInformation: null, testCases: null },
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
    format: (reward) => reward.toFixed(3),
    sentence: (reward) => `similarity ${reward.toFixed(3)}`,
    hasSuccess: false,
  },
  pairRule: {
    name: `frontend: every two samples whose similarities differ by at least ${FRONTEND_MIN_GAP}, the higher chosen`,
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
  hidden: { summary: "the target page and its render" },
  runOptions: frontendRunOptions,
  describeRun(config) {
    const options = frontendOptionsSchema.parse(config);
    return [`render profile: ${profileLabel(options.render)}`, ...(options.embedderReason ? [`frontend similarity: ${options.embedderReason}`] : [])];
  },
  runtime: () => import("./runtime").then((m) => m.frontendRuntime),
} satisfies BenchmarkModule<typeof frontendRunOptions>;
