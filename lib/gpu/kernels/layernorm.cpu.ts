// CPU reference of layernorm.wgsl (and the CLIP reference's LayerNorm): biased variance around the
// mean, as PyTorch. Rows of x may be `xStride` apart; the output is dense.

export function layernormCpu(
  x: Float32Array,
  rows: number,
  d: number,
  gamma: ArrayLike<number>,
  beta: ArrayLike<number>,
  eps: number,
  xStride = d,
): Float32Array {
  const y = new Float32Array(rows * d);
  for (let r = 0; r < rows; r++) {
    const o = r * xStride;
    let mean = 0;
    for (let i = 0; i < d; i++) mean += x[o + i]!;
    mean /= d;
    let variance = 0;
    for (let i = 0; i < d; i++) {
      const c = x[o + i]! - mean;
      variance += c * c;
    }
    variance /= d;
    const inv = 1 / Math.sqrt(variance + eps);
    for (let i = 0; i < d; i++) y[r * d + i] = (x[o + i]! - mean) * inv * gamma[i]! + beta[i]!;
  }
  return y;
}
