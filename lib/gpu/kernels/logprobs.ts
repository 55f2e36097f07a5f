import { spread, type Batch, type Gpu } from "../gpu";
import { withWeights } from "../weights";
import type { VocabPart } from "./embed";
import lseSource from "./lm-head-lse.wgsl";
import gatherSource from "./logprob-gather.wgsl";

/** Tokens per (row, chunk) partial of the log-softmax; parts of a split table start at multiples of it. */
export const VOCAB_CHUNK = 1024;

/**
 * log p(target | row) for each (row, target) pair (u32 pairs in `pairs`), the rows' logits being
 * x[rows, d] · tableᵀ over every part of the vocabulary: log-softmax and gather in one go, without
 * writing logits or probabilities out. `partials` holds rows · ⌈vocab / 1024⌉ · 2 floats.
 */
export function logprobs(
  gpu: Gpu,
  batch: Batch,
  args: {
    x: GPUBuffer;
    rows: number;
    d: number;
    parts: VocabPart[];
    pairs: GPUBuffer;
    count: number;
    partials: GPUBuffer;
    out: GPUBuffer;
  },
): void {
  if (args.rows === 0 || args.count === 0) return;
  const vocab = Math.max(...args.parts.map((p) => p.end));
  const chunks = Math.ceil(vocab / VOCAB_CHUNK);
  for (const part of args.parts) {
    if (part.begin % VOCAB_CHUNK)
      throw new Error(`logprobs: a vocabulary part starts at ${part.begin}, not a multiple of ${VOCAB_CHUNK}`);
    const tokens = part.end - part.begin;
    const kernel = withWeights(gpu, "lm-head-lse", lseSource, part.weights.format);
    batch.dispatch(
      gpu.kernel(kernel.name, kernel.source, kernel.constants),
      [args.rows, tokens, args.d, part.begin / VOCAB_CHUNK, chunks],
      [part.weights.buffer, args.x, args.partials],
      [Math.ceil(tokens / VOCAB_CHUNK), Math.ceil(args.rows / 64), 1],
    );
  }
  for (const part of args.parts) {
    const kernel = withWeights(gpu, "logprob-gather", gatherSource, part.weights.format);
    batch.dispatch(
      gpu.kernel(kernel.name, kernel.source, kernel.constants),
      [args.count, args.d, part.begin, part.end, chunks],
      [part.weights.buffer, args.x, args.partials, args.pairs, args.out],
      spread(args.count),
    );
  }
}
