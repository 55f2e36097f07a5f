// CPU reference of matmul.wgsl: y[m, n] = x[m, k] · w[n, k]ᵀ (+ bias[n]) (+ residual[m, n]), summed in f64.

export function matmulCpu(
  x: Float32Array,
  m: number,
  w: Float32Array,
  n: number,
  k: number,
  bias?: Float32Array | null,
  residual?: Float32Array | null,
): Float32Array {
  const y = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    const xo = i * k;
    for (let j = 0; j < n; j++) {
      const wo = j * k;
      let s = 0;
      for (let c = 0; c < k; c++) s += x[xo + c]! * w[wo + c]!;
      if (bias) s += bias[j]!;
      if (residual) s += residual[i * n + j]!;
      y[i * n + j] = s;
    }
  }
  return y;
}
