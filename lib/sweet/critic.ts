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
export function criticPrompt(
  template: ChatTemplate,
  groundTruth: string | null,
  input: string,
  candidate: string,
): string {
  return (groundTruth === null ? "" : groundTruthPrefix(groundTruth)) + input + candidate + template.assistantHeader;
}

/**
 * The critic's score from its prompt log-probs by the published rule: the tokens after the last
 * end-of-turn before the trailing empty generation prompt, leaving that prompt out; their mean, or
 * their sum. The published script looks for the eos token, which closes Llama 3's and Qwen's turns;
 * here it is what closes the turn before a reply in the run's own template (`turnEnd`: the same token
 * for those, `<|end|>` for Phi-3, `<end_of_turn>` for Gemma, `[/INST]` for Mistral, whose eos tokens
 * never close a user turn), so the span is the reply's turn in every template shape.
 * Where the tokens carry their start in the prompt that was sent (a server's answer, checked to
 * cover it), the span is cut at character offsets of that prompt. Otherwise (a model on this machine)
 * it is cut by token, less the generation prompt's token count from the tokenizer.
 * An empty span is an error, never a score.
 */
export function criticScore(
  template: ChatTemplate,
  tokens: Array<{ token: string; logprob: number | null; start?: number }>,
  options: { sum?: boolean; prompt?: string } = {},
): number {
  let span: number[];
  const turnEnd = template.turnEnd;
  if (options.prompt !== undefined && tokens.every((t) => t.start !== undefined)) {
    const prompt = options.prompt;
    if (!prompt.endsWith(template.assistantHeader))
      throw new Error(
        `the critic's prompt does not end with the template's generation prompt ${JSON.stringify(template.assistantHeader)}`,
      );
    const end = prompt.length - template.assistantHeader.length;
    const last = prompt.lastIndexOf(turnEnd, end - turnEnd.length);
    const begin = last < 0 ? 0 : last + turnEnd.length;
    span = tokens.flatMap((t) => (t.logprob !== null && t.start! >= begin && t.start! < end ? [t.logprob] : []));
  } else {
    const header = template.assistantHeaderTokens;
    if (header === null)
      throw new Error(
        `chat template ${template.name}: the generation prompt's token count is unknown (its folder has no tokenizer.json)`,
      );
    const body = tokens.slice(0, Math.max(0, tokens.length - header));
    // A closing text such as Mistral's " [/INST]" is one token without its leading space.
    const closing = turnEnd.trim();
    let last = -1;
    for (let i = body.length - 1; i >= 0; i--) {
      if (body[i]!.token === closing) {
        last = i;
        break;
      }
    }
    span = body.slice(last + 1).flatMap((t) => (t.logprob === null ? [] : [t.logprob]));
  }
  if (span.length === 0)
    throw new Error("the critic's span (the tokens after the last end-of-turn, before the generation prompt) is empty");
  const total = span.reduce((a, b) => a + b, 0);
  return options.sum ? total : total / span.length;
}

/** Advantage of a candidate: the critic's score minus the policy's own (mean or sum) log-prob. */
export function advantage(criticScore: number, policyLogprob: number): number {
  return criticScore - policyLogprob;
}
