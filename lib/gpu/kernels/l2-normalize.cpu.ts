// CPU reference of l2-normalize.wgsl: each row of x[rows, d] over its length (a zero row stays zero).

export function l2NormalizeCpu(x: Float32Array, rows: number, d: number): Float32Array {
  const out = new Float32Array(rows * d);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += x[r * d + i]! ** 2;
    const n = Math.sqrt(s);
    if (n > 0) for (let i = 0; i < d; i++) out[r * d + i] = x[r * d + i]! / n;
  }
  return out;
}
