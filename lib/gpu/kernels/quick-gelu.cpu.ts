import { matmulCpu } from "./matmul.cpu";

// CPU references of quick-gelu.wgsl and the MLP quickGeluMlp composes.

/** x · sigmoid(1.702 x), in place. */
export function quickGeluCpu(x: Float32Array): Float32Array {
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    x[i] = v / (1 + Math.exp(-1.702 * v));
  }
  return x;
}

/** fc2(quickGelu(x fc1ᵀ + b1)) + b2 + residual, with fc1 [inner, d] and fc2 [d, inner]. */
export function quickGeluMlpCpu(
  x: Float32Array,
  rows: number,
  d: number,
  fc1: Float32Array,
  b1: Float32Array,
  fc2: Float32Array,
  b2: Float32Array,
  inner: number,
  residual: Float32Array,
): Float32Array {
  const h = quickGeluCpu(matmulCpu(x, rows, fc1, inner, d, b1));
  return matmulCpu(h, rows, fc2, d, inner, b2, residual);
}
