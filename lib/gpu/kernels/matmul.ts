import { spread, type Batch, type Gpu } from "../gpu";
import { withWeights, type GpuWeights } from "../weights";
import source from "./matmul.wgsl";
import matvecSource from "./matvec.wgsl";

/** Rows up to which matvec.wgsl (8 columns per workgroup, no row tiles) runs instead of the 64 × 64 tiles. */
export const MATVEC_ROWS = 4;

/** A linear layer in a weight buffer: w[n, k] from element `at`, its bias (if any) from `biasAt`. */
export interface Linear {
  weights: GpuWeights;
  n: number;
  k: number;
  at?: number;
  biasAt?: number | null;
}

/** y[m, n] = x[m, k] · wᵀ (+ bias) (+ residual). `y` must not be `x` or `residual`. A few rows (decode steps) go to matvec.wgsl. */
export function matmul(
  gpu: Gpu,
  batch: Batch,
  args: { x: GPUBuffer; y: GPUBuffer; m: number; linear: Linear; residual?: GPUBuffer },
): void {
  const { x, y, m, linear, residual } = args;
  if (m === 0) return;
  const hasBias = linear.biasAt !== undefined && linear.biasAt !== null;
  const few = m <= MATVEC_ROWS;
  const kernel = withWeights(gpu, few ? "matvec" : "matmul", few ? matvecSource : source, linear.weights.format);
  const pipeline = gpu.kernel(kernel.name, kernel.source, kernel.constants);
  batch.dispatch(
    pipeline,
    [m, linear.n, linear.k, hasBias ? linear.biasAt! : 0, linear.at ?? 0, hasBias ? 1 : 0, residual ? 1 : 0],
    [linear.weights.buffer, x, y, residual ?? x],
    few ? spread(Math.ceil(linear.n / 8)) : [Math.ceil(linear.n / 64), Math.ceil(m / 64), 1],
  );
}
