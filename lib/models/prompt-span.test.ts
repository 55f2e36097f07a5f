import { describe, expect, it } from "vitest";
import { promptSpan, SpanProblem, type EchoAnswer } from "./prompt-span";

// Answers in the shape vLLM's completions endpoint gives with echo and logprobs (see prompt-span.ts):
// the prompt's tokens decoded one by one, offsets the running sum of their lengths, the first
// log-prob null, then one generated token.

function answer(
  tokens: string[],
  generated = " ok",
  overrides: Partial<EchoAnswer> = {},
): { answer: EchoAnswer; promptTokens: number } {
  const all = [...tokens, generated];
  const offsets: number[] = [];
  let at = 0;
  for (const t of all) {
    offsets.push(at);
    at += t.length;
  }
  return {
    answer: {
      text: tokens.join("") + generated,
      tokens: all,
      token_logprobs: all.map((_, i) => (i === 0 ? null : -0.5 - i / 10)),
      text_offset: offsets,
      ...overrides,
    },
    promptTokens: tokens.length,
  };
}

const prompt =
  "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi there<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n";
const tokens = [
  "<|begin_of_text|>",
  "<|start_header_id|>",
  "user",
  "<|end_header_id|>",
  "\n\n",
  "Hi",
  " there",
  "<|eot_id|>",
  "<|start_header_id|>",
  "assistant",
  "<|end_header_id|>",
  "\n\n",
];

describe("a completions answer must score the whole prompt that was sent", () => {
  it("places every prompt token at its character offset in the prompt", () => {
    const { answer: a, promptTokens } = answer(tokens);
    const span = promptSpan(prompt, a, promptTokens);
    expect(span).toHaveLength(tokens.length);
    expect(span.map((t) => prompt.slice(t.start, t.start + t.token.length))).toEqual(tokens);
    expect(span[0]!.logprob).toBeNull();
    expect(span[1]!.logprob).toBeCloseTo(-0.6, 10);
  });

  it("refuses an answer that ignored echo (only the generated token came back)", () => {
    const a: EchoAnswer = { text: " ok", tokens: [" ok"], token_logprobs: [-0.3], text_offset: [0] };
    expect(() => promptSpan(prompt, a, tokens.length)).toThrow(/ignored echo/);
  });

  it("refuses a prompt cut short (vLLM's truncate_prompt_tokens keeps the end)", () => {
    const cut = tokens.slice(3);
    const { answer: a } = answer(cut);
    expect(() => promptSpan(prompt, { ...a, text: prompt + " ok" }, cut.length)).toThrow(SpanProblem);
    expect(() => promptSpan(prompt, { ...a, text: prompt + " ok" }, cut.length)).toThrow(
      /not the prompt's text at character 0/,
    );
  });

  it("refuses nulls after the first token", () => {
    const { answer: a, promptTokens } = answer(tokens);
    a.token_logprobs[5] = null;
    expect(() => promptSpan(prompt, a, promptTokens)).toThrow(
      /1 prompt token\(s\) have no log-prob \(first at token 5/,
    );
  });

  it("refuses offsets that do not add up", () => {
    const { answer: a, promptTokens } = answer(tokens);
    a.text_offset![4] = a.text_offset![4]! + 1;
    expect(() => promptSpan(prompt, a, promptTokens)).toThrow(/text_offset\[4\]/);
  });

  it("refuses a BOS the server added in front of the prompt's own (add_special_tokens left true)", () => {
    const { answer: a, promptTokens } = answer(["<|begin_of_text|>", ...tokens]);
    expect(() => promptSpan(prompt, { ...a, text: prompt + " ok" }, promptTokens)).toThrow(/BOS token it added/);
  });

  it("refuses an answer without usage, offsets or matching lengths", () => {
    const { answer: a, promptTokens } = answer(tokens);
    expect(() => promptSpan(prompt, a, undefined)).toThrow(/usage.prompt_tokens/);
    expect(() => promptSpan(prompt, { ...a, text_offset: null }, promptTokens)).toThrow(/text_offset is missing/);
    expect(() => promptSpan(prompt, { ...a, token_logprobs: a.token_logprobs.slice(1) }, promptTokens)).toThrow(
      /token_logprobs/,
    );
  });

  it("places tokens that cut a character (decoded alone to U+FFFD) where the character is", () => {
    const text = "<|begin_of_text|>caf\u00e9 \ud83c\udf89 done";
    // The emoji's four bytes split over two tokens: each decodes to U+FFFD alone.
    const pieces = ["<|begin_of_text|>", "caf", "\u00e9", " ", "\ufffd", "\ufffd", " done"];
    const { answer: a, promptTokens } = answer(pieces);
    const span = promptSpan(text, { ...a, text: text + " ok" }, promptTokens);
    expect(span.map((t) => t.start)).toEqual([0, 17, 20, 21, 22, 22, 24]);
  });
});
