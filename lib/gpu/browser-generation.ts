import type { ModelConfig } from "./model/config";
import type { FinishReason } from "./generate/generate";
import type { Sampling } from "./generate/sampler";
import { sizeOf } from "./model/source";

// What the collaborator's seat and its generation Web Worker (workers/browser/gpu-generation.worker.ts)
// say to each other, the weights cache the worker reads through, and the check that a model fits the
// browser's memory before any weight is read.

export type GenerationRequest =
  | {
      type: "load";
      /** Where the studio serves the policy's files: `${base}/FILE`. */
      weightsBase: string;
      /** What the run records as the model (the served folder). */
      model: string;
      /** Prompt and new tokens one turn may need, for the memory check. */
      tokens: number;
    }
  | {
      type: "generate";
      id: number;
      messages: Array<{ role: string; content: string }>;
      sampling: Sampling;
      maxNewTokens: number;
    };

export type GenerationMessage =
  | { type: "adapter"; device: string }
  | {
      type: "loading";
      loaded: number;
      total: number;
      /** Weight files, and their bytes, read from this browser's cache rather than the studio. */
      cachedFiles: number;
      cachedBytes: number;
      files: number;
    }
  | { type: "ready"; template: string; weightBytes: number }
  | { type: "text"; id: number; piece: string; tokens: number }
  | {
      type: "done";
      id: number;
      text: string;
      finish: FinishReason;
      promptTokens: number;
      completionTokens: number;
      firstTokenMs: number;
      decodeMs: number;
    }
  | { type: "error"; kind: "no-webgpu" | "memory" | "failed"; message: string };

const GB = 1024 ** 3;
const gb = (bytes: number) => `${(bytes / GB).toFixed(bytes < GB ? 2 : 1)} GB`;

/** Bytes on the GPU for a turn: the weights as stored, the keys and values of every position (f32), a step's logits. */
export function memoryNeed(config: ModelConfig, weightBytes: number, tokens: number): number {
  const cache = config.layers * 2 * tokens * config.kvHeads * config.headDim * 4;
  return weightBytes + cache + config.vocab * 4 * 4;
}

/**
 * Why this browser cannot hold the model, naming what would, or null. `deviceMemory` is
 * navigator.deviceMemory (GB, rounded down to a power of two, at most 8 in Chrome: a value of 8 says
 * only "8 or more"), so it refuses only where the browser tells a figure below that ceiling; a buffer
 * larger than the adapter allows, or memory the GPU runs out of, is told when loading (explainLoadError).
 */
export function memoryVerdict(input: { need: number; deviceMemoryGb?: number }): string | null {
  const fix =
    "What would work: a machine with more memory (a GPU with that much free), a smaller policy served with `colbench serve --policy-weights DIR` (Qwen2.5-0.5B-Instruct needs about 1.2 GB), or a model server as the agent";
  const memory = input.deviceMemoryGb;
  if (memory !== undefined && memory < 8 && input.need > memory * GB * 0.75)
    return `This model needs about ${gb(input.need)} of GPU memory for a turn; this browser reports ${memory} GB of memory in all. ${fix}.`;
  return null;
}

/** A load error that is the GPU running out of memory, told as such. */
export function explainLoadError(message: string, need: number): { kind: "memory" | "failed"; message: string } {
  if (/out of memory|OutOfMemory|allocation|largest buffer|device (was )?lost/i.test(message))
    return {
      kind: "memory",
      message: `The GPU ran out of memory loading the model (about ${gb(need)} needed): ${message}. What would work: close other GPU-heavy tabs, a GPU with more memory, or a smaller policy served with \`colbench serve --policy-weights DIR\`.`,
    };
  return { kind: "failed", message };
}

export interface CacheReport {
  url: string;
  bytes: number;
  /** Read from this browser's cache (the studio's file unchanged: same ETag). */
  hit: boolean;
}

/**
 * `fetch` for a model's weights through the browser's Cache Storage: a safetensors file whose ETag
 * (HEAD) matches the kept copy's is read from the cache, else from the studio and kept as it streams.
 * Other files, HEAD and range requests go to the network as asked.
 */
export function cachingFetch(
  cache: Cache | null,
  report: (r: CacheReport) => void,
  network: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? "GET").toUpperCase();
    if (!cache || method !== "GET" || new Headers(init?.headers).has("range") || !/\.safetensors$/.test(url))
      return network(input, init);
    const etag = (await network(url, { method: "HEAD" })).headers.get("etag");
    const kept = etag ? await cache.match(url) : undefined;
    if (kept && kept.headers.get("etag") === etag) {
      report({ url, bytes: sizeOf(kept.headers), hit: true });
      return kept;
    }
    const response = await network(input, init);
    if (!response.ok || !response.body || !etag || response.headers.get("etag") !== etag) return response;
    const [mine, keep] = response.body.tee();
    // A full quota or a private window's refusal only means the next load reads the studio again.
    void cache.put(url, new Response(keep, { status: 200, headers: response.headers })).catch(() => {});
    report({ url, bytes: sizeOf(response.headers), hit: false });
    return new Response(mine, { status: response.status, headers: response.headers });
  };
}
