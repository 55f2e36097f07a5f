// The CPU math of the CLIP vision tower, one small function per operation so that a GPU runner
// can replace them one by one. Matrices are row-major Float32Arrays; weights keep PyTorch's
// Linear layout [out, in], so a projection is x · Wᵀ and both operands are read along rows.
// LayerNorm, quick-GELU and the L2 norm are lib/gpu's CPU references of its WGSL kernels (one
// operator a file there); the matmul here is blocked for speed and the attention is plain
// multi-head, where lib/gpu's references serve the packed, cached case.

import { l2NormalizeCpu } from "../../../gpu/kernels/l2-normalize.cpu";
import { layernormCpu } from "../../../gpu/kernels/layernorm.cpu";
import { quickGeluCpu } from "../../../gpu/kernels/quick-gelu.cpu";

/**
 * out[M, N] = x[M, K] · w[N, K]ᵀ (+ bias[N]). Blocks of 4 rows of x by 4 rows of w share their
 * loads: 16 running sums, 8 loads for 16 multiply-adds, which keeps V8's scalar code busy
 * instead of waiting on memory (about 3x a plain triple loop here).
 */
export function linear(
  x: Float32Array,
  M: number,
  K: number,
  w: Float32Array,
  N: number,
  bias?: Float32Array,
): Float32Array {
  const out = new Float32Array(M * N);
  const M4 = M - (M % 4);
  const N4 = N - (N % 4);
  for (let i = 0; i < M4; i += 4) {
    const x0 = i * K;
    const x1 = x0 + K;
    const x2 = x1 + K;
    const x3 = x2 + K;
    for (let j = 0; j < N4; j += 4) {
      const w0 = j * K;
      const w1 = w0 + K;
      const w2 = w1 + K;
      const w3 = w2 + K;
      let s00 = 0,
        s01 = 0,
        s02 = 0,
        s03 = 0;
      let s10 = 0,
        s11 = 0,
        s12 = 0,
        s13 = 0;
      let s20 = 0,
        s21 = 0,
        s22 = 0,
        s23 = 0;
      let s30 = 0,
        s31 = 0,
        s32 = 0,
        s33 = 0;
      for (let k = 0; k < K; k++) {
        const a0 = x[x0 + k]!,
          a1 = x[x1 + k]!,
          a2 = x[x2 + k]!,
          a3 = x[x3 + k]!;
        const b0 = w[w0 + k]!,
          b1 = w[w1 + k]!,
          b2 = w[w2 + k]!,
          b3 = w[w3 + k]!;
        s00 += a0 * b0;
        s01 += a0 * b1;
        s02 += a0 * b2;
        s03 += a0 * b3;
        s10 += a1 * b0;
        s11 += a1 * b1;
        s12 += a1 * b2;
        s13 += a1 * b3;
        s20 += a2 * b0;
        s21 += a2 * b1;
        s22 += a2 * b2;
        s23 += a2 * b3;
        s30 += a3 * b0;
        s31 += a3 * b1;
        s32 += a3 * b2;
        s33 += a3 * b3;
      }
      let o = i * N + j;
      out[o] = s00;
      out[o + 1] = s01;
      out[o + 2] = s02;
      out[o + 3] = s03;
      o += N;
      out[o] = s10;
      out[o + 1] = s11;
      out[o + 2] = s12;
      out[o + 3] = s13;
      o += N;
      out[o] = s20;
      out[o + 1] = s21;
      out[o + 2] = s22;
      out[o + 3] = s23;
      o += N;
      out[o] = s30;
      out[o + 1] = s31;
      out[o + 2] = s32;
      out[o + 3] = s33;
    }
  }
  // Leftover rows and columns, one dot product at a time.
  for (let i = 0; i < M; i++) {
    for (let j = i < M4 ? N4 : 0; j < N; j++) {
      let s = 0;
      const xo = i * K;
      const wo = j * K;
      for (let k = 0; k < K; k++) s += x[xo + k]! * w[wo + k]!;
      out[i * N + j] = s;
    }
  }
  if (bias) {
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) out[i * N + j]! += bias[j]!;
  }
  return out;
}

/** LayerNorm over the last dimension of x[M, D] (biased variance, as PyTorch): lib/gpu's reference. */
export function layerNorm(
  x: Float32Array,
  M: number,
  D: number,
  gamma: Float32Array,
  beta: Float32Array,
  eps: number,
): Float32Array {
  return layernormCpu(x, M, D, gamma, beta, eps);
}

/** x += y, elementwise. */
export function addInPlace(x: Float32Array, y: Float32Array): void {
  for (let i = 0; i < x.length; i++) x[i]! += y[i]!;
}

/** CLIP's activation: x * sigmoid(1.702 x), in place (lib/gpu's reference). */
export function quickGeluInPlace(x: Float32Array): void {
  quickGeluCpu(x);
}

/**
 * Multi-head self-attention core: softmax(q kᵀ · scale) v per head, for q, k, v of shape
 * [T, heads * headDim] (the projections' outputs, heads side by side); returns [T, heads * headDim].
 */
export function attention(
  q: Float32Array,
  k: Float32Array,
  v: Float32Array,
  T: number,
  heads: number,
  headDim: number,
): Float32Array {
  const D = heads * headDim;
  const scale = headDim ** -0.5;
  const out = new Float32Array(T * D);
  const scores = new Float64Array(T);
  for (let h = 0; h < heads; h++) {
    const ho = h * headDim;
    for (let i = 0; i < T; i++) {
      const qo = i * D + ho;
      let max = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < T; j++) {
        const ko = j * D + ho;
        let s = 0;
        for (let d = 0; d < headDim; d++) s += q[qo + d]! * k[ko + d]!;
        s *= scale;
        scores[j] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j < T; j++) {
        const e = Math.exp(scores[j]! - max);
        scores[j] = e;
        sum += e;
      }
      const oo = i * D + ho;
      for (let j = 0; j < T; j++) {
        const p = scores[j]! / sum;
        const vo = j * D + ho;
        for (let d = 0; d < headDim; d++) out[oo + d]! += p * v[vo + d]!;
      }
    }
  }
  return out;
}

/** x / ‖x‖ (a zero vector stays zero): lib/gpu's reference. */
export function l2Normalize(x: Float32Array): Float32Array {
  return l2NormalizeCpu(x, 1, x.length);
}
