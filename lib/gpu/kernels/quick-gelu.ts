import { spread, type Batch, type Gpu } from "../gpu";
import { matmul, type Linear } from "./matmul";
import source from "./quick-gelu.wgsl";

/** x ← x · sigmoid(1.702 x) over the first `count` floats of x. */
export function quickGelu(gpu: Gpu, batch: Batch, args: { x: GPUBuffer; count: number }): void {
  if (args.count === 0) return;
  batch.dispatch(gpu.kernel("quick-gelu", source), [args.count], [args.x], spread(Math.ceil(args.count / 256)));
}

/**
 * CLIP's MLP with its residual: y = fc2(quickGelu(fc1(x))) + residual (both with biases); `hidden`
 * holds [rows, fc1.n] floats. `y` must not be `residual`.
 */
export function quickGeluMlp(
  gpu: Gpu,
  batch: Batch,
  args: { x: GPUBuffer; y: GPUBuffer; residual: GPUBuffer; rows: number; fc1: Linear; fc2: Linear; hidden: GPUBuffer },
): void {
  matmul(gpu, batch, { x: args.x, y: args.hidden, m: args.rows, linear: args.fc1 });
  quickGelu(gpu, batch, { x: args.hidden, count: args.rows * args.fc1.n });
  matmul(gpu, batch, { x: args.hidden, y: args.y, m: args.rows, linear: args.fc2, residual: args.residual });
}
