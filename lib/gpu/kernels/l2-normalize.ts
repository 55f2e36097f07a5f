import { spread, type Batch, type Gpu } from "../gpu";
import source from "./l2-normalize.wgsl";

/** Each of `rows` rows of x[rows, d] scaled to unit length, in place. */
export function l2Normalize(gpu: Gpu, batch: Batch, args: { x: GPUBuffer; rows: number; d: number }): void {
  if (args.rows === 0) return;
  batch.dispatch(gpu.kernel("l2-normalize", source), [args.rows, args.d], [args.x], spread(args.rows));
}
