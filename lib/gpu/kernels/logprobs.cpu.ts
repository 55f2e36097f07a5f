// CPU reference of the fused log-softmax + gather (lm-head-lse.wgsl, logprob-gather.wgsl), in f64.

export function logprobsCpu(
  x: Float32Array,
  d: number,
  table: Float32Array,
  vocab: number,
  pairs: ArrayLike<number>,
): Float32Array {
  const count = pairs.length / 2;
  const out = new Float32Array(count);
  const lse = new Map<number, number>();
  const logit = (row: number, token: number) => {
    let s = 0;
    for (let i = 0; i < d; i++) s += x[row * d + i]! * table[token * d + i]!;
    return s;
  };
  for (let p = 0; p < count; p++) {
    const row = pairs[2 * p]!;
    if (!lse.has(row)) {
      const logits = Array.from({ length: vocab }, (_, t) => logit(row, t));
      const max = logits.reduce((a, l) => Math.max(a, l), Number.NEGATIVE_INFINITY);
      lse.set(row, max + Math.log(logits.reduce((a, l) => a + Math.exp(l - max), 0)));
    }
    out[p] = logit(row, pairs[2 * p + 1]!) - lse.get(row)!;
  }
  return out;
}
