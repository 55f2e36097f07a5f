import type { OpenAICompatibleClient } from "../models/openai-client";
import type { ChatTemplate } from "./chat-template";
import { criticPrompt, criticScore } from "./critic";
import { continuationStats, type PromptScorer } from "./score-turn";

// The two halves of a turn's advantage through model servers, as the steps compute them: the policy
// server's log-prob of the turn's own output (`candidates`, candidate 0) and the critic server's score
// of a candidate (`rank`). Live advantages through servers (lib/sweet/live-servers.ts) call these same
// functions, so a turn's live value is the value the steps store for it.

/** The policy's mean and sum log-prob of a turn's own output after its prompt, the end-of-turn token scored too. */
export async function policyOwnStats(
  policy: Pick<OpenAICompatibleClient, "textLogprobs">,
  template: ChatTemplate,
  input: string,
  output: string,
): Promise<{ mean: number; sum: number }> {
  // The end-of-turn token is scored too: a sample's log-probs include the one it ended on.
  return continuationStats(await policy.textLogprobs(input, output + template.endOfTurn));
}

/**
 * The critic server's score of one candidate: its prompt (the final answer first, unless null),
 * scored through echo, over the span `criticScore` cuts at the prompt's character offsets.
 */
export async function criticServerScore(
  critic: PromptScorer,
  template: ChatTemplate,
  candidate: { groundTruth: string | null; input: string; text: string },
  options: { sum?: boolean; what: string },
): Promise<number> {
  const prompt = criticPrompt(template, candidate.groundTruth, candidate.input, candidate.text);
  // A server's answer that does not cover the prompt is refused by the client, in its own words.
  const tokens = await critic.promptLogprobs(prompt);
  try {
    return criticScore(template, tokens, { sum: options.sum, prompt });
  } catch (error) {
    throw new Error(`${critic.spec.model}: ${options.what}: ${(error as Error).message}`);
  }
}
