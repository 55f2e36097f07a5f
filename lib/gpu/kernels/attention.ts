import { f32, type Batch, type Gpu } from "../gpu";
import type { Heads } from "./rope";
import source from "./attention.wgsl";

export interface KvCache {
  k: GPUBuffer;
  v: GPUBuffer;
  /** Rows of keys it holds ([length, kvHeads, headDim]). */
  length: number;
}

/**
 * out[rows, heads, headDim] = softmax(q kᵀ / √d) v per row and head, over the prefix's keys and the
 * row's own segment (`segments`: [start, end) per row, u32 pairs), causal unless `causal` is false.
 */
export function attention(
  gpu: Gpu,
  batch: Batch,
  args: {
    q: GPUBuffer;
    qStride: number;
    k: GPUBuffer;
    v: GPUBuffer;
    segments: GPUBuffer;
    out: GPUBuffer;
    rows: number;
    prefix?: KvCache | null;
    causal?: boolean;
  } & Heads,
): void {
  const { rows, heads, kvHeads, headDim } = args;
  if (rows === 0) return;
  if (headDim > 128) throw new Error(`attention: head_dim ${headDim} is more than the kernel's 128`);
  if (heads % kvHeads !== 0) throw new Error(`attention: ${heads} heads do not split into ${kvHeads} key/value groups`);
  const prefix = args.prefix && args.prefix.length > 0 ? args.prefix : null;
  const pipeline = gpu.kernel("attention", source, { HEAD_DIM: headDim });
  batch.dispatch(
    pipeline,
    [
      rows,
      heads,
      kvHeads,
      headDim,
      prefix?.length ?? 0,
      args.qStride,
      f32(1 / Math.sqrt(headDim)),
      args.causal === false ? 0 : 1,
    ],
    [args.q, prefix?.k ?? args.k, prefix?.v ?? args.v, args.k, args.v, args.segments, args.out],
    [Math.ceil(rows / 64), heads, 1],
  );
}
