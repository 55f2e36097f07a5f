import type { ModelConfig } from "./config";

// What generation asks of a model runner (gpu-decode.ts, or CpuModel): a session that keeps every
// layer's keys and values for the tokens it has seen (the KV cache), takes more tokens (the prompt
// at once, then one at a time) and answers the logits after the last of them.

export interface DecodeSession {
  /** Tokens in the cache. */
  readonly length: number;
  /** Most tokens the cache holds. */
  readonly capacity: number;
  /** Runs `ids` after the cached tokens, caching their keys and values; the logits after the last of them ([vocab]). */
  append(ids: number[]): Promise<Float32Array>;
  dispose(): void;
}

export interface DecodeEngine {
  readonly config: ModelConfig;
  /** Where it runs, for messages and records ("webgpu: …", "cpu"). */
  readonly device: string;
  /** A session whose cache holds up to `capacity` tokens. */
  startSession(capacity: number): DecodeSession;
}

export function checkAppend(config: ModelConfig, session: DecodeSession, ids: number[]): void {
  if (!ids.length) throw new Error("append: no tokens to run");
  if (session.length + ids.length > session.capacity) {
    throw new Error(
      `append: ${session.length} cached + ${ids.length} new tokens are more than the session's ${session.capacity}`,
    );
  }
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0 || id >= config.vocab)
      throw new Error(`append: token id ${id} is outside the model's vocabulary of ${config.vocab}`);
  }
}
