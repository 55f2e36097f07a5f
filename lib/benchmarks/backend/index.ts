import { z } from "zod";
import { lastAnswer } from "../../colbench/episode";
import { zodProblems } from "../../colbench/jsonl";
import { extractAnswer, wantsToAnswer } from "../../colbench/protocol";
import { stripFences } from "../../colbench/turn-code";
import type { BenchmarkModule } from "../module";
import { backendScoreCli } from "./score-cli";
import { COLBENCH_DATASET, colbenchFile } from "../colbench-dataset";
import { starterFunction } from "./starter";

// ColBench's backend benchmark: the agent writes a Python function, scored by the fraction of the
// task's hidden unit tests it passes (a reward of 1 is a success).

const text = z.string().trim().min(1, "must be a non-empty string");

export const backendTaskSchema = z.object({
  problem_description: text,
  ground_truth: text,
  test_cases: z
    .record(z.string().min(1, "test names must be non-empty"), text)
    .refine((cases) => Object.keys(cases).length > 0, "must hold at least one test"),
  hidden_information: z.string().optional(),
});

export type BackendTaskRecord = z.infer<typeof backendTaskSchema>;

/** One test's result as the scorer stores it in an episode's score details. */
interface ScoredTest {
  name?: string;
  expression?: string;
  passed?: boolean;
  reason?: string;
  expected?: string;
  actual?: string;
}

/** The last fenced block of a message, without its language tag; null when it has none. */
function lastFencedBlock(content: string): string | null {
  const blocks = [...content.matchAll(/```[\w+-]*\n?([\s\S]*?)```/g)];
  const last = blocks[blocks.length - 1];
  return last ? last[1]! : null;
}

export const backend = {
  name: "backend",
  title: "backend (Python function)",
  answer: { kind: "code", language: "python", noun: "code" },
  task: {
    schema: backendTaskSchema,
    parse(record) {
      const parsed = backendTaskSchema.safeParse(record);
      if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
      const r = parsed.data;
      return {
        ok: true,
        task: {
          benchmark: "backend",
          problemDescription: r.problem_description,
          groundTruth: r.ground_truth,
          hiddenInformation: r.hidden_information ?? null,
          testCases: Object.entries(r.test_cases).map(([name, expression]) => ({ name, expression })),
        },
      };
    },
    official(task) {
      const record: BackendTaskRecord = {
        problem_description: task.problemDescription,
        ground_truth: task.groundTruth,
        test_cases: Object.fromEntries((task.testCases ?? []).map((t) => [t.name, t.expression])),
      };
      if (task.hiddenInformation !== null) record.hidden_information = task.hiddenInformation;
      return record;
    },
    recognizes: (record) => "test_cases" in record,
  },
  official: { dataset: COLBENCH_DATASET, file: (split) => colbenchFile("backend", split), optional: false },
  episode: { replyLimit: 400, finalAnswer: lastAnswer },
  starter: starterFunction,
  proposalOf(turn) {
    if (turn.role !== "agent") return null;
    if (wantsToAnswer(turn.content)) return stripFences(extractAnswer(turn.content)).trim() + "\n";
    const block = lastFencedBlock(turn.content);
    return block === null ? null : block.trim() + "\n";
  },
  reward: {
    name: "Success",
    measure: "% tests passed",
    format: (reward) => `${Math.round(reward * 100)}%`,
    sentence: (reward) => `${Math.round(reward * 100)}% of the hidden tests passed`,
    hasSuccess: true,
  },
  pairRule: {
    name: "backend: the first best sample (reward 1) over every sample below it",
    what: "a sample that passes every test against one of the same task that does not",
    pairs(rewards) {
      const best = Math.max(...rewards);
      if (!(best >= 1)) return [];
      const chosen = rewards.indexOf(best);
      const pairs: Array<[number, number]> = [];
      rewards.forEach((r, i) => {
        if (r < best) pairs.push([chosen, i]);
      });
      return pairs;
    },
  },
  hidden: {
    summary: "the reference function and its unit tests",
    label: (task) => ({ groundTruth: task.groundTruth, tests: task.testCases?.map((t) => t.expression) }),
  },
  labelSide(details, hidden) {
    const tests = ((details ?? {}) as { tests?: ScoredTest[] }).tests ?? [];
    // Without hidden information a labeller sees only whether each test passed, never the test.
    return {
      tests: tests.map((t, i) =>
        hidden
          ? {
              name: t.name ?? `test ${i + 1}`,
              passed: Boolean(t.passed),
              expression: t.expression,
              reason: t.reason,
              expected: t.expected,
              actual: t.actual,
            }
          : { name: `test ${i + 1}`, passed: Boolean(t.passed) },
      ),
    };
  },
  runOptions: {},
  scoreCli: backendScoreCli,
  describeRun: () => [],
  runtime: () => import(/* turbopackIgnore: true */ "./runtime").then((m) => m.backendRuntime),
} satisfies BenchmarkModule;
