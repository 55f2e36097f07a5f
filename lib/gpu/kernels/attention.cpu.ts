// CPU reference of attention.wgsl (in f64): each row attends to every prefix key and to its own
// segment's keys (up to itself when causal).

export interface AttentionInput {
  q: Float32Array;
  qStride: number;
  rows: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  prefixK: Float32Array;
  prefixV: Float32Array;
  prefixLength: number;
  k: Float32Array;
  v: Float32Array;
  /** [start, end) per row. */
  segments: ArrayLike<number>;
  causal?: boolean;
}

export function attentionCpu(a: AttentionInput): Float32Array {
  const { rows, heads, kvHeads, headDim: d } = a;
  const out = new Float32Array(rows * heads * d);
  const group = heads / kvHeads;
  const scale = 1 / Math.sqrt(d);
  for (let r = 0; r < rows; r++) {
    const start = a.segments[2 * r]!;
    const end = a.causal === false ? a.segments[2 * r + 1]! : r + 1;
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h / group);
      const qo = r * a.qStride + h * d;
      const keys: Array<[Float32Array, Float32Array, number]> = [];
      for (let j = 0; j < a.prefixLength; j++) keys.push([a.prefixK, a.prefixV, (j * kvHeads + g) * d]);
      for (let j = start; j < end; j++) keys.push([a.k, a.v, (j * kvHeads + g) * d]);
      const scores = keys.map(([k, , o]) => {
        let s = 0;
        for (let i = 0; i < d; i++) s += a.q[qo + i]! * k[o + i]!;
        return s * scale;
      });
      const max = scores.reduce((a, s) => Math.max(a, s), Number.NEGATIVE_INFINITY);
      const weights = scores.map((s) => Math.exp(s - max));
      const total = weights.reduce((x, y) => x + y, 0);
      for (let i = 0; i < d; i++) {
        let s = 0;
        keys.forEach(([, v, o], j) => (s += weights[j]! * v[o + i]!));
        out[(r * heads + h) * d + i] = s / total;
      }
    }
  }
  return out;
}
