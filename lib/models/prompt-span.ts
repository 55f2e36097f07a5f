// Whether a completions answer with `echo` scores the whole prompt that was sent, and where each of
// its tokens sits in that prompt. What vLLM's OpenAI server sends (vllm/entrypoints/openai/
// serving_completion.py, `request_output_to_completion_response` and `_create_completion_logprobs`):
// `text` is the prompt as sent plus the generated text; `logprobs.tokens` are the prompt's token ids
// each decoded alone (`tokenizer.decode([id])`, special tokens as themselves, whatever
// `skip_special_tokens` says), then the generated ones; `token_logprobs[0]` is null (nothing
// precedes the first token); `text_offset[i]` is the running sum of the decoded tokens' lengths from 0;
// `usage.prompt_tokens` counts the prompt's tokens, any BOS the server added included.
//
// A token cut inside a multi-byte character decodes alone to U+FFFD, so decoded lengths can drift
// from the prompt's; positions are therefore found by aligning the decoded tokens with the text that
// was sent, and the answer is refused when they cannot be aligned.

export interface PromptToken {
  token: string;
  logprob: number | null;
  /** Where the token starts in the prompt that was sent (UTF-16 index). */
  start: number;
}

export interface EchoAnswer {
  text?: string | null;
  tokens: string[];
  token_logprobs: Array<number | null>;
  text_offset?: number[] | null;
}

/** What is wrong with an answer, in words a person can act on; null when it covers the prompt. */
export class SpanProblem extends Error {}

const REPLACEMENT = "\ufffd";

/**
 * How far above 0 a log-prob may read and still be a probability: a log-softmax's largest entry is 0
 * up to float rounding. A value past it is not a log-probability, and no score is made of it.
 */
export const LOGPROB_CEILING = 1e-5;

/** The first log-prob that is not one (not finite, or above 0), with its place; null when all are. */
export function notALogprob(logprobs: Array<number | null>): { at: number; value: number } | null {
  for (let i = 0; i < logprobs.length; i++) {
    const value = logprobs[i];
    if (value === null || value === undefined) continue;
    if (!Number.isFinite(value) || value > LOGPROB_CEILING) return { at: i, value };
  }
  return null;
}

/**
 * Whether a sample's tokens spell its text: all of it, nothing more but the end-of-sequence token a
 * server scores after the text when the sample stops on it. A sample whose log-probs cover part of
 * its tokens would otherwise give a mean over part of the answer.
 */
export function tokensSpell(text: string, tokens: string[]): boolean {
  // Tokens decoded one at a time can lose a word's leading space (SentencePiece's "▁"): spaces aside,
  // the characters must still be the text's.
  const bare = (s: string) => s.replace(/\s+/g, "");
  for (const candidate of [tokens, tokens.slice(0, -1)]) {
    if (bare(candidate.join("")) === bare(text)) return true;
    try {
      align(text, candidate);
      return true;
    } catch (error) {
      if (!(error instanceof SpanProblem)) throw error;
    }
  }
  return false;
}

/**
 * The prompt's tokens with their log-probs and their start in `prompt`, or a SpanProblem saying what
 * the answer lacks: echo ignored, fewer tokens than the prompt has, offsets that do not add up, text
 * the server put before the prompt (a BOS token it added), nulls after the first token, tokens that
 * do not spell the prompt.
 */
export function promptSpan(prompt: string, answer: EchoAnswer, promptTokens: number | undefined): PromptToken[] {
  const { tokens, token_logprobs: logprobs, text_offset: offsets } = answer;
  if (promptTokens === undefined)
    throw new SpanProblem(
      "the answer has no usage.prompt_tokens, so its prompt tokens cannot be told from the generated ones",
    );
  if (tokens.length !== logprobs.length)
    throw new SpanProblem(`logprobs.tokens has ${tokens.length} entries but token_logprobs ${logprobs.length}`);
  if (!offsets || offsets.length !== tokens.length)
    throw new SpanProblem(
      `logprobs.text_offset is ${offsets ? `${offsets.length} entries for ${tokens.length} tokens` : "missing"}`,
    );
  if (tokens.length < promptTokens) {
    throw new SpanProblem(
      `the answer scores ${tokens.length} token(s) but the prompt has ${promptTokens}: the server ignored echo (or cut the prompt)`,
    );
  }
  if (typeof answer.text === "string" && !answer.text.startsWith(prompt)) {
    throw new SpanProblem(
      `the answer's text does not begin with the prompt that was sent: the server ignored echo, or cut or changed the prompt`,
    );
  }
  for (let i = 0; i < tokens.length; i++) {
    const expected = i === 0 ? 0 : offsets[i - 1]! + tokens[i - 1]!.length;
    if (offsets[i] !== expected)
      throw new SpanProblem(`logprobs.text_offset[${i}] is ${offsets[i]}, but the tokens before it end at ${expected}`);
  }
  if (tokens[0] === "") {
    throw new SpanProblem(
      `the server scored an empty token in front of the prompt (a BOS token it added that decodes to nothing: send add_special_tokens false, or leave BOS out of the prompt)`,
    );
  }
  const nulls = logprobs
    .slice(1, promptTokens)
    .flatMap((lp, i) => (typeof lp === "number" && Number.isFinite(lp) ? [] : [i + 1]));
  if (nulls.length)
    throw new SpanProblem(
      `${nulls.length} prompt token(s) have no log-prob (first at token ${nulls[0]} of ${promptTokens})`,
    );
  const wrong = notALogprob(logprobs.slice(0, promptTokens));
  if (wrong)
    throw new SpanProblem(
      `prompt token ${wrong.at} has the log-prob ${wrong.value}, which no probability has (log-probs are at most 0)`,
    );
  const joined = tokens.slice(0, promptTokens).join("");
  if (joined.length > prompt.length && joined.endsWith(prompt)) {
    throw new SpanProblem(
      `the server scored "${joined.slice(0, joined.length - prompt.length).slice(0, 60)}" in front of the prompt (a BOS token it added: send add_special_tokens false, or leave BOS out of the prompt)`,
    );
  }
  const starts = align(prompt, tokens.slice(0, promptTokens));
  return starts.map((start, i) => ({ token: tokens[i]!, logprob: i === 0 ? null : logprobs[i]!, start }));
}

/** Each token's start in `prompt`; the tokens must spell it, U+FFFD standing for the pieces of a cut character. */
function align(prompt: string, tokens: string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (!token.includes(REPLACEMENT) || prompt.startsWith(token, at)) {
      if (!prompt.startsWith(token, at)) {
        throw new SpanProblem(
          `token ${i} ("${token.slice(0, 40)}") is not the prompt's text at character ${at} ("${prompt.slice(at, at + 40)}")`,
        );
      }
      starts.push(at);
      at += token.length;
      i++;
      continue;
    }
    // A run of tokens with cut characters: they cover the prompt up to where the next clean token fits.
    let j = i;
    while (j < tokens.length && tokens[j]!.includes(REPLACEMENT) && !prompt.startsWith(tokens[j]!, at)) j++;
    const next = tokens[j];
    const end = next === undefined ? prompt.length : nextFit(prompt, at, next);
    if (end < 0 || !/[^\x00-\x7f]/.test(prompt.slice(at, end))) {
      throw new SpanProblem(
        `tokens ${i}..${j - 1} decode to cut characters that cannot be placed in the prompt at character ${at}`,
      );
    }
    for (let k = i; k < j; k++) starts.push(at);
    at = end;
    i = j;
  }
  if (at !== prompt.length)
    throw new SpanProblem(
      `the prompt tokens cover ${at} of the prompt's ${prompt.length} characters: the server cut the prompt`,
    );
  return starts;
}

/** The first place at or after `from` where `token` fits, past at least one character. */
function nextFit(prompt: string, from: number, token: string): number {
  for (let p = from + 1; p <= prompt.length; p++) if (prompt.startsWith(token, p)) return p;
  return -1;
}
