import type { Batch, Gpu } from "../gpu";
import type { VocabPart } from "./embed";
import { matmul } from "./matmul";

// The logits generation samples from: the LM head as a plain matmul over each part of the
// vocabulary table ([tokens, d] is a linear layer's [n, k]), every part's columns copied to their
// place in one [rows, vocab] buffer. The CPU reference is matmulCpu over the whole table.

/** out[rows, vocab] = x[rows, d] · tableᵀ. `scratch` holds rows · (the largest part's tokens) floats when the table is split. */
export function logits(
  gpu: Gpu,
  batch: Batch,
  args: { x: GPUBuffer; rows: number; d: number; parts: VocabPart[]; out: GPUBuffer; scratch?: GPUBuffer },
): void {
  const { rows, d, parts } = args;
  if (rows === 0) return;
  const vocab = Math.max(...parts.map((p) => p.end));
  for (const part of parts) {
    const tokens = part.end - part.begin;
    const linear = { weights: part.weights, n: tokens, k: d, at: 0 };
    if (parts.length === 1) {
      matmul(gpu, batch, { x: args.x, y: args.out, m: rows, linear });
      continue;
    }
    if (!args.scratch) throw new Error("logits: a split vocabulary table needs a scratch buffer");
    matmul(gpu, batch, { x: args.x, y: args.scratch, m: rows, linear });
    for (let r = 0; r < rows; r++)
      batch.copy(args.scratch, r * tokens * 4, args.out, (r * vocab + part.begin) * 4, tokens * 4);
  }
}
