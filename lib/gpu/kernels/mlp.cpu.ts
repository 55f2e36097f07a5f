import { matmulCpu } from "./matmul.cpu";

// CPU references of silu-mul.wgsl and the MLP mlp.ts composes.

export function siluMulCpu(gateUp: Float32Array, rows: number, inner: number): Float32Array {
  const h = new Float32Array(rows * inner);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < inner; i++) {
      const g = gateUp[r * 2 * inner + i]!;
      h[r * inner + i] = (g / (1 + Math.exp(-g))) * gateUp[r * 2 * inner + inner + i]!;
    }
  }
  return h;
}

/** down(silu(x gateᵀ) · (x upᵀ)) + residual; `gateUp` is [2 · inner, d]. */
export function mlpCpu(
  x: Float32Array,
  rows: number,
  d: number,
  gateUp: Float32Array,
  down: Float32Array,
  inner: number,
  residual: Float32Array,
): Float32Array {
  const h = siluMulCpu(matmulCpu(x, rows, gateUp, 2 * inner, d), rows, inner);
  return matmulCpu(h, rows, down, d, inner, null, residual);
}
