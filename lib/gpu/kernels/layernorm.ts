import { f32, spread, type Batch, type Gpu } from "../gpu";
import { withWeights, type GpuWeights } from "../weights";
import source from "./layernorm.wgsl";

/**
 * y[r, :] = LayerNorm(x[r · xStride …]) · gamma + beta, with gamma then beta (`d` elements each) in
 * `weights` from `at`. `xStride` defaults to `d` (dense rows); y is always dense.
 */
export function layernorm(
  gpu: Gpu,
  batch: Batch,
  args: {
    x: GPUBuffer;
    y: GPUBuffer;
    rows: number;
    d: number;
    eps: number;
    weights: GpuWeights;
    at?: number;
    xStride?: number;
  },
): void {
  if (args.rows === 0) return;
  const kernel = withWeights(gpu, "layernorm", source, args.weights.format);
  batch.dispatch(
    gpu.kernel(kernel.name, kernel.source, kernel.constants),
    [args.rows, args.d, f32(args.eps), args.at ?? 0, args.xStride ?? args.d],
    [args.weights.buffer, args.x, args.y],
    spread(args.rows),
  );
}
