import { f32, spread, type Batch, type Gpu } from "../gpu";
import { withWeights, type GpuWeights } from "../weights";
import source from "./rmsnorm.wgsl";

/** y[r, :] = RMSNorm(x[r, :]) · w (w: `d` elements of `weights` from `at`). */
export function rmsnorm(
  gpu: Gpu,
  batch: Batch,
  args: { x: GPUBuffer; y: GPUBuffer; rows: number; d: number; eps: number; weights: GpuWeights; at?: number },
): void {
  if (args.rows === 0) return;
  const kernel = withWeights(gpu, "rmsnorm", source, args.weights.format);
  batch.dispatch(
    gpu.kernel(kernel.name, kernel.source, kernel.constants),
    [args.rows, args.d, f32(args.eps), args.at ?? 0],
    [args.weights.buffer, args.x, args.y],
    spread(args.rows),
  );
}
