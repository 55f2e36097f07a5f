import type { ChatTemplate } from "./chat-template";

// The critic's view of a turn: with training-time information it is told the final answer first.

export function groundTruthPrefix(groundTruth: string): string {
  return `In light that the final answer is: ${groundTruth}.`;
}

/** A trajectory pair side for critic training: prefix (or not), then the last agent turn's input and output. */
export function criticTrainingText(groundTruth: string | null, input: string, output: string): string {
  return (groundTruth === null ? "" : groundTruthPrefix(groundTruth)) + input + output;
}

/** What the critic scores for a candidate: prefix, the state's input, the candidate, an empty assistant header. */
export function criticPrompt(template: ChatTemplate, groundTruth: string | null, input: string, candidate: string): string {
  return (groundTruth === null ? "" : groundTruthPrefix(groundTruth)) + input + candidate + template.assistantHeader;
}

/**
 * The critic's score from its prompt log-probs (one per prompt token, the first null): the tokens
 * after the last end-of-turn token, leaving out the trailing empty assistant header; their mean, or
 * their sum.
 */
export function criticScore(template: ChatTemplate, tokens: Array<{ token: string; logprob: number | null }>, options: { sum?: boolean } = {}): number {
  const body = tokens.slice(0, Math.max(0, tokens.length - template.assistantHeaderTokens));
  let last = -1;
  for (let i = body.length - 1; i >= 0; i--) {
    if (body[i]!.token === template.endOfTurn) {
      last = i;
      break;
    }
  }
  const span = body.slice(last + 1).flatMap((t) => (t.logprob === null ? [] : [t.logprob]));
  if (span.length === 0) return Number.NaN;
  const total = span.reduce((a, b) => a + b, 0);
  return options.sum ? total : total / span.length;
}

/** Advantage of a candidate: the critic's score minus the policy's own (mean or sum) log-prob. */
export function advantage(criticScore: number, policyLogprob: number): number {
  return criticScore - policyLogprob;
}
