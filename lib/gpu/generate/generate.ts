import type { DecodeEngine } from "../model/decode";
import { checkSampling, GREEDY, TokenSampler, type Sampling } from "./sampler";

// Generation on a model runner (GPU or CPU): the prompt through the layers at once (prefill), then
// one token per step against the KV cache (decode). It stops at an end token (not part of the
// text), at a stop string (the text is cut before it), at maxNewTokens, or when aborted; each
// token's text is streamed as soon as it can no longer turn out to begin a stop string (or to be
// half of a multi-byte character).

export interface GenerateOptions {
  maxNewTokens: number;
  sampling?: Sampling;
  /** Token ids that end the generation (the tokenizer's end-of-turn and end-of-text tokens). */
  stopTokens?: number[];
  /** Texts that end the generation; the text returned stops before the first of them. */
  stopStrings?: string[];
  /** Called with each new piece of text, in order; the pieces add up to the returned text. */
  onText?: (piece: string, step: { tokens: number }) => void;
  /** Keep each step's logits (tests, parity). */
  keepLogits?: boolean;
  signal?: AbortSignal;
}

export type FinishReason = "stop-token" | "stop-string" | "length" | "aborted";

export interface Generation {
  /** The tokens generated, an end token that stopped it included. */
  ids: number[];
  text: string;
  finish: FinishReason;
  promptTokens: number;
  /** The logits each token was picked from (with keepLogits). */
  logits?: Float32Array[];
  timing: {
    /** From the call to the first token picked (prefill and the first pick). */
    firstTokenMs: number;
    /** Steps after the first token, and their time. */
    decodeSteps: number;
    decodeMs: number;
  };
}

export interface TextDecoder {
  decode(ids: number[]): string;
}

/** The longest end of `text` that begins some stop string (text that may still become one). */
function heldBack(text: string, stops: string[]): number {
  let hold = 0;
  for (const stop of stops) {
    for (let n = Math.min(stop.length - 1, text.length); n > hold; n--) {
      if (text.endsWith(stop.slice(0, n))) {
        hold = n;
        break;
      }
    }
  }
  return hold;
}

export async function generate(
  engine: DecodeEngine,
  tokenizer: TextDecoder,
  prompt: number[],
  options: GenerateOptions,
): Promise<Generation> {
  const started = performance.now();
  const max = options.maxNewTokens;
  if (!(Number.isInteger(max) && max >= 1)) throw new Error(`maxNewTokens must be a whole number ≥ 1 (got ${max})`);
  if (!prompt.length) throw new Error("generate: the prompt has no tokens");
  const sampler = new TokenSampler(checkSampling(options.sampling ?? GREEDY));
  const stopTokens = new Set(options.stopTokens ?? []);
  const stopStrings = (options.stopStrings ?? []).filter((s) => s.length > 0);
  const session = engine.startSession(prompt.length + max);
  const ids: number[] = [];
  const kept: Float32Array[] = [];
  let text = "";
  let streamed = 0;
  let finish: FinishReason = "length";
  let firstTokenMs = 0;
  let decodeStart = 0;
  const stream = (upTo: number) => {
    if (upTo > streamed) {
      options.onText?.(text.slice(streamed, upTo), { tokens: ids.length });
      streamed = upTo;
    }
  };
  try {
    let logits = await session.append(prompt);
    for (;;) {
      if (options.signal?.aborted) {
        finish = "aborted";
        break;
      }
      if (options.keepLogits) kept.push(logits);
      const token = sampler.pick(logits);
      ids.push(token);
      if (ids.length === 1) {
        firstTokenMs = performance.now() - started;
        decodeStart = performance.now();
      }
      if (stopTokens.has(token)) {
        finish = "stop-token";
        break;
      }
      text = tokenizer.decode(ids);
      // A stop string may end inside this token: look from where the last complete one could start.
      const from = Math.max(0, streamed - Math.max(0, ...stopStrings.map((s) => s.length)));
      const cut = Math.min(...stopStrings.map((s) => text.indexOf(s, from)).filter((i) => i >= 0));
      if (Number.isFinite(cut)) {
        text = text.slice(0, cut);
        finish = "stop-string";
        break;
      }
      // A trailing U+FFFD is a character whose remaining bytes are in tokens to come.
      const settled = text.endsWith("\uFFFD") ? text.replace(/\uFFFD+$/, "").length : text.length;
      stream(settled - heldBack(text.slice(0, settled), stopStrings));
      if (ids.length === max) break;
      logits = await session.append([token]);
    }
  } finally {
    session.dispose();
  }
  stream(text.length);
  return {
    ids,
    text,
    finish,
    promptTokens: prompt.length,
    ...(options.keepLogits ? { logits: kept } : {}),
    timing: {
      firstTokenMs,
      decodeSteps: Math.max(0, ids.length - 1),
      decodeMs: ids.length > 1 ? performance.now() - decodeStart : 0,
    },
  };
}
