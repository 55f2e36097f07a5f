import type { ModelConfig } from "./config";

// What a model runner computes for the scorer, on the GPU (gpu-model.ts) or the CPU (cpu-model.ts):
// token log-probs of candidates that follow one shared prefix of token ids.

export interface ScoreRequest {
  prefix: number[];
  candidates: number[][];
  /** The first prefix position whose log-prob is wanted (≥ 1); prefix.length for none. */
  prefixFrom: number;
  /** Per candidate, the [from, to) of its own tokens that its totals cover (default: all of them). */
  spans?: Array<[number, number]>;
}

export interface ScoreResult {
  /** log p(prefix[i] | prefix[..i]) for i from prefixFrom on. */
  prefix: Float32Array;
  /** Per candidate, log p of each of its tokens given the prefix and its earlier tokens (NaN for a first token with no prefix before it). */
  candidates: Float32Array[];
  /** Per candidate, the sum and mean of the log-probs in its span (NaN mean for a span with none). */
  totals: Array<{ sum: number; mean: number }>;
}

export interface LogprobEngine {
  readonly config: ModelConfig;
  /** Where it runs, for messages ("webgpu: …", "cpu"). */
  readonly device: string;
  score(request: ScoreRequest): Promise<ScoreResult>;
  dispose(): void;
}

export function checkRequest(config: ModelConfig, request: ScoreRequest): void {
  const check = (ids: number[], what: string) => {
    for (const id of ids)
      if (!Number.isInteger(id) || id < 0 || id >= config.vocab)
        throw new Error(`${what}: token id ${id} is outside the model's vocabulary of ${config.vocab}`);
  };
  check(request.prefix, "prefix");
  request.candidates.forEach((c, i) => check(c, `candidate ${i}`));
  request.spans?.forEach(([from, to], i) => {
    if (!(from >= 0 && to >= from && to <= (request.candidates[i]?.length ?? -1)))
      throw new Error(`candidate ${i}: span [${from}, ${to}) is outside its ${request.candidates[i]?.length} tokens`);
  });
  if (request.prefixFrom < 1 || request.prefixFrom > Math.max(1, request.prefix.length))
    throw new Error(`prefixFrom ${request.prefixFrom} is outside 1 … ${request.prefix.length}`);
}

/** The span of candidate `i`'s own tokens that carry a log-prob (a first token with no prefix has none). */
export function scoredSpan(request: ScoreRequest, i: number): [number, number] {
  const [from, to] = request.spans?.[i] ?? [0, request.candidates[i]!.length];
  const first = request.prefix.length ? 0 : 1;
  return [Math.max(from, first), Math.max(to, first)];
}
