import type { TextLogprobs } from "../models/types";
import { promptText, type ChatTemplate } from "./chat-template";
import { advantage, criticPrompt, criticScore } from "./critic";

// One agent turn's candidates scored by a critic (and, where given, a policy) that take many texts
// at once: the models on this machine (lib/gpu), whose candidates of one turn share their prompt's
// work. The texts, the span and the advantage are the ones `rankCandidates` uses with a server.

export interface TokenLogprob {
  token: string;
  logprob: number | null;
}

/** A model scoring whole prompts: every token's log-prob, the first's null. */
export interface PromptScorer {
  spec: { model: string };
  promptLogprobs(prompt: string): Promise<TokenLogprob[]>;
  /** Many prompts at once, where the scorer can share their common beginning. */
  promptLogprobsBatch?(prompts: string[]): Promise<TokenLogprob[][]>;
}

/** A policy scoring continuations of one prompt. */
export interface ContinuationScorer {
  spec: { model: string };
  textLogprobsBatch(prefix: string, continuations: string[]): Promise<TextLogprobs[]>;
}

/** The policy's own log-prob of a continuation: mean and sum over its tokens. */
export function continuationStats(scored: TextLogprobs): { mean: number; sum: number } {
  const values = scored.tokens.slice(scored.continuationStart).map((t) => t.logprob);
  const sum = values.reduce((a, b) => a + b, 0);
  return { mean: values.length ? sum / values.length : Number.NaN, sum };
}

export interface TurnToScore {
  /** The turn's prompt as stored (chat messages, or text). */
  prompt: unknown;
  /** The task's final answer, or null to leave it out of the critic's prompt. */
  groundTruth: string | null;
  candidates: Array<{ index: number; text: string; policyMean?: number | null; policySum?: number | null }>;
}

export interface ScoredCandidate {
  index: number;
  criticScore: number;
  policyMean: number;
  policySum: number;
  advantage: number;
}

/**
 * The critic's score of each candidate (prompt log-probs over the span after the last end-of-turn),
 * the policy's own log-prob (recomputed when a policy is given, else the stored one) and the
 * advantage, mean or sum.
 */
export async function scoreTurn(
  template: ChatTemplate,
  turn: TurnToScore,
  critic: PromptScorer & Required<Pick<PromptScorer, "promptLogprobsBatch">>,
  policy: ContinuationScorer | null,
  options: { sum?: boolean } = {},
): Promise<ScoredCandidate[]> {
  const input = promptText(template, turn.prompt);
  const texts = turn.candidates.map((c) => c.text);
  const [criticTokens, policyScores] = await Promise.all([
    critic.promptLogprobsBatch(texts.map((text) => criticPrompt(template, turn.groundTruth, input, text))),
    policy ? policy.textLogprobsBatch(input, texts) : null,
  ]);
  return turn.candidates.map((c, i) => {
    const score = criticScore(template, criticTokens[i]!, { sum: options.sum });
    const own = policyScores
      ? continuationStats(policyScores[i]!)
      : { mean: c.policyMean ?? Number.NaN, sum: c.policySum ?? Number.NaN };
    return {
      index: c.index,
      criticScore: score,
      policyMean: own.mean,
      policySum: own.sum,
      advantage: advantage(score, options.sum ? own.sum : own.mean),
    };
  });
}
