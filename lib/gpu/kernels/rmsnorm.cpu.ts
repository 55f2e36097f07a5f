// CPU reference of rmsnorm.wgsl.

export function rmsnormCpu(x: Float32Array, rows: number, d: number, w: Float32Array, eps: number): Float32Array {
  const y = new Float32Array(rows * d);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += x[r * d + i]! ** 2;
    const scale = 1 / Math.sqrt(s / d + eps);
    for (let i = 0; i < d; i++) y[r * d + i] = x[r * d + i]! * scale * w[i]!;
  }
  return y;
}
