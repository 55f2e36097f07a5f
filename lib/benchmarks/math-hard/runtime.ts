import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { formatServerSpec } from "../../colbench/server-spec";
import { OpenAICompatibleClient } from "../../models/openai-client";
import type { BenchmarkRuntime } from "../module";
import type { OpenScorer } from "../scorer";
import { boxedCheck } from "./boxed";
import { askJudge, conversationForJudge, fillJudgePrompt } from "./judge";
import { mathHardRunOptions } from "./run-options";
import { CollabUserSimulator } from "./simulator";

const here = path.dirname(fileURLToPath(import.meta.url));
const options = z.object(mathHardRunOptions);

/** The name details give MATH's own check, so nobody takes it for CollabLLM's accuracy. */
export const BOXED_CHECK_NAME = "MATH is_equiv (hendrycks), not the reward";

/** CollabLLM's accuracy from the run's judge, with MATH's boxed-answer check recorded beside it. */
export async function openMathHardScorer(
  config: Record<string, unknown>,
  clientOptions: ConstructorParameters<typeof OpenAICompatibleClient>[1] = {},
): Promise<OpenScorer> {
  const { judge } = options.parse(config);
  const client = new OpenAICompatibleClient(judge, clientOptions);
  const template = fs.readFileSync(path.join(here, "judge-prompt.txt"), "utf8");
  return {
    services: {},
    async score(task, outcome) {
      const dialogue = outcome.turns.map((t) => ({
        role: t.role === "agent" ? ("assistant" as const) : ("user" as const),
        content: t.content,
      }));
      const prompt = fillJudgePrompt(template, {
        problem: task.hiddenInformation ?? "",
        referenceSolution: task.groundTruth,
        conversation: conversationForJudge(dialogue),
      });
      const verdict = await askJudge(client, prompt);
      return {
        reward: verdict.accuracy,
        details: {
          accuracy: verdict.accuracy,
          thought: verdict.thought,
          judge: formatServerSpec(judge),
          judgeRaw: verdict.raw,
          judgeAttempts: verdict.attempts,
          boxed: { check: BOXED_CHECK_NAME, ...boxedCheck(task.groundTruth, outcome.answer) },
        },
      };
    },
    close: async () => {},
  };
}

export const mathHardRuntime: BenchmarkRuntime = {
  openScorer: (config) => openMathHardScorer(config),
  modelSimulator: (client, prompt) => new CollabUserSimulator(client, prompt),
};
