import { spread, type Batch, type Gpu } from "../gpu";
import source from "./rope.wgsl";

export interface Heads {
  heads: number;
  kvHeads: number;
  headDim: number;
}

/**
 * Rotates q in `qkv` ([rows, (heads + 2 kvHeads) · headDim]) in place and writes rotated k and v
 * to `k`, `v` ([rows, kvHeads, headDim]); `positions` (u32 per row) index `table` (rope-table.ts).
 */
export function rope(
  gpu: Gpu,
  batch: Batch,
  args: { qkv: GPUBuffer; k: GPUBuffer; v: GPUBuffer; table: GPUBuffer; positions: GPUBuffer; rows: number } & Heads,
): void {
  if (args.rows === 0) return;
  const half = args.headDim / 2;
  const perRow = (args.heads + args.kvHeads) * half + args.kvHeads * args.headDim;
  batch.dispatch(
    gpu.kernel("rope", source),
    [args.rows, args.heads, args.kvHeads, args.headDim],
    [args.qkv, args.k, args.v, args.table, args.positions],
    spread(Math.ceil((args.rows * perRow) / 256)),
  );
}
