// CPU reference of rope.wgsl: returns the rotated q (in a copy of qkv) and the [row, kv head, d] k and v.

export function ropeCpu(
  qkv: Float32Array,
  rows: number,
  heads: number,
  kvHeads: number,
  headDim: number,
  table: Float32Array,
  positions: ArrayLike<number>,
): { qkv: Float32Array; k: Float32Array; v: Float32Array } {
  const half = headDim / 2;
  const stride = (heads + 2 * kvHeads) * headDim;
  const out = Float32Array.from(qkv);
  const k = new Float32Array(rows * kvHeads * headDim);
  const v = new Float32Array(rows * kvHeads * headDim);
  const rotate = (src: Float32Array, from: number, dst: Float32Array, to: number, pos: number) => {
    for (let i = 0; i < half; i++) {
      const c = table[(pos * half + i) * 2]!;
      const s = table[(pos * half + i) * 2 + 1]!;
      const a = src[from + i]!;
      const b = src[from + i + half]!;
      dst[to + i] = a * c - b * s;
      dst[to + i + half] = b * c + a * s;
    }
  };
  for (let r = 0; r < rows; r++) {
    const base = r * stride;
    const pos = positions[r]!;
    for (let h = 0; h < heads; h++) rotate(qkv, base + h * headDim, out, base + h * headDim, pos);
    for (let h = 0; h < kvHeads; h++) {
      rotate(qkv, base + (heads + h) * headDim, k, (r * kvHeads + h) * headDim, pos);
      for (let d = 0; d < headDim; d++)
        v[(r * kvHeads + h) * headDim + d] = qkv[base + (heads + kvHeads + h) * headDim + d]!;
    }
  }
  return { qkv: out, k, v };
}
