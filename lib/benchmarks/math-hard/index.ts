import { z } from "zod";
import type { TurnRecord } from "../../colbench/episode";
import { MESSAGE_CHAR_LIMIT } from "../../colbench/protocol";
import { formatServerSpec, parseServerSpec } from "../../colbench/server-spec";
import type { BenchmarkModule } from "../module";
import { mathHardRunOptions } from "./run-options";
import { mathHardTask } from "./task";

// CollabLLM's MATH-Hard (Wu et al., ICML 2025; github.com/Wuyxin/collabllm): a simulated user holds
// a level-5 MATH problem and brings it to the agent bit by bit; when the user is satisfied (or the
// message budget runs out) an LLM judge rates the conversation's answer against the reference
// solution, 1 or 0.

/** CollabLLM's simulated user ends the chat by answering with this (collabllm/prompts/__init__.py). */
export const TERMINATION_SIGNAL = "[[TERMINATE CHAT]]";

/**
 * CollabLLM's evaluation budget is 14 messages (scripts/engine/inference.py, --max_turns 14; every
 * user and assistant message counts one, collabllm/simulation.py): the user opens, so 7 agent turns.
 */
export const MATH_HARD_AGENT_TURNS = 7;

/** The episode's answer: the last agent message, whole (CollabLLM has no answer marker). */
export function lastAgentMessage(turns: readonly TurnRecord[]): {
  answer: string | null;
  answerRenderId: string | null;
} {
  const last = [...turns].reverse().find((t) => t.role === "agent");
  return { answer: last ? last.content : null, answerRenderId: null };
}

const percent = (reward: number) => `${Math.round(reward * 100)}%`;

export const mathHard = {
  name: "math-hard",
  title: "math-hard (CollabLLM, MATH level 5)",
  answer: { kind: "text", language: "markdown", noun: "answer" },
  task: mathHardTask,
  // lighteval/MATH-Hard, the dataset CollabLLM's examples/single_turn_ds/math_hard.py loads: its
  // README's configs name one JSONL file per subject and split ({problem, level, type, solution}
  // lines, which this module reads). CollabLLM's own hub datasets (collabllm/collabllm-multiturn-*)
  // are parquet with a train split only, so they are no source of test tasks.
  official: {
    dataset: "datasets/lighteval/MATH-Hard",
    file: (split) => `${split}/algebra.jsonl`,
    moreFiles: (split) =>
      [
        "counting_and_probability",
        "geometry",
        "intermediate_algebra",
        "number_theory",
        "prealgebra",
        "precalculus",
      ].map((subject) => `${split}/${subject}.jsonl`),
    optional: false,
  },
  episode: {
    // CollabLLM cuts no reply. Its user's whole JSON answer is capped at 1024 tokens (about 4,000
    // characters), so the longest message a person may send never cuts a model's reply.
    replyLimit: MESSAGE_CHAR_LIMIT,
    simulatorOpens: true,
    simulatorEnds: (content) => content.includes(TERMINATION_SIGNAL),
    agentEnds: () => false,
    maxAgentTurns: MATH_HARD_AGENT_TURNS,
    finalAnswer: lastAgentMessage,
  },
  starter: () => "",
  proposalOf: (turn) => (turn.role === "agent" ? turn.content : null),
  reward: {
    name: "Accuracy",
    measure: "% judged correct",
    format: percent,
    sentence: (reward) =>
      reward >= 1 ? "judged correct" : reward <= 0 ? "judged wrong" : `${percent(reward)} judged correct`,
    hasSuccess: true,
  },
  pairRule: {
    // CollabLLM's own preference data is turn-level (candidate replies ranked by its multiturn-aware
    // reward); over a task's best-of-k episodes the studio pairs as for backend.
    name: "math-hard: the first correct sample (accuracy 1) over every wrong one (as backend; CollabLLM's own pairs are turn-level)",
    what: "a sample the judge found correct against one of the same task it found wrong",
    pairs(rewards) {
      const chosen = rewards.findIndex((r) => r >= 1);
      if (chosen < 0) return [];
      const pairs: Array<[number, number]> = [];
      rewards.forEach((r, i) => {
        if (r < 1) pairs.push([chosen, i]);
      });
      return pairs;
    },
  },
  hidden: {
    summary: "the problem and its reference solution",
    label: (task) => ({ groundTruth: task.groundTruth }),
  },
  // The judge's verdict is the reward itself; a side shows no per-part results (no tests, no render).
  labelSide: () => ({}),
  runOptions: mathHardRunOptions,
  // The judge as asked: a server spec (the form's, the API's) or its text (`--option judge=URL#MODEL`).
  async prepareRun(asked) {
    const judge = asked.judge;
    if (judge === undefined || judge === "")
      throw new Error(
        "a math-hard run needs its judge, a model server: --option judge=URL#MODEL (CollabLLM's accuracy is an LLM judge)",
      );
    return { options: { judge: typeof judge === "string" ? parseServerSpec(judge, "judge") : judge } };
  },
  describeRun(config) {
    const { judge } = z.object(mathHardRunOptions).parse(config);
    return [
      `judge: ${formatServerSpec(judge)} (CollabLLM's accuracy, 0 or 1; MATH's boxed-answer check recorded beside it)`,
    ];
  },
  scoreMismatches(a, b) {
    const judgeOf = (config: unknown) => {
      const parsed = z.object(mathHardRunOptions).safeParse(config);
      return parsed.success ? formatServerSpec(parsed.data.judge) : "no judge recorded";
    };
    const [ja, jb] = [judgeOf(a.config), judgeOf(b.config)];
    if (ja === jb) return [];
    return [
      {
        by: "judge",
        reason: `${a.name} was judged by ${ja} and ${b.name} by ${jb}: accuracies from different judges do not compare`,
      },
    ];
  },
  runtime: () => import(/* turbopackIgnore: true */ "./runtime").then((m) => m.mathHardRuntime),
} satisfies BenchmarkModule<typeof mathHardRunOptions>;
