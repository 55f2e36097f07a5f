// Rotary position embeddings' frequencies and their cos/sin table, as Hugging Face computes them in
// f32 (so the GPU and CPU paths rotate by exactly PyTorch's angles): the default schedule, linear
// scaling, and Llama 3's frequency-dependent scaling.

export type RopeScaling =
  | { type: "default" }
  | { type: "linear"; factor: number }
  | { type: "llama3"; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositions: number };

export interface Rope {
  theta: number;
  headDim: number;
  scaling: RopeScaling;
}

const f = Math.fround;

/** inv_freq[i] = 1 / theta^(2i / d), then scaled; one per rotated pair (headDim / 2). */
export function inverseFrequencies(rope: Rope): Float32Array {
  const half = rope.headDim / 2;
  const out = new Float32Array(half);
  for (let i = 0; i < half; i++) {
    const base = f(1 / f(Math.pow(rope.theta, f((2 * i) / rope.headDim))));
    out[i] = scaled(base, rope.scaling);
  }
  return out;
}

function scaled(inv: number, s: RopeScaling): number {
  if (s.type === "default") return inv;
  if (s.type === "linear") return f(inv / s.factor);
  const lowWavelen = f(s.originalMaxPositions / s.lowFreqFactor);
  const highWavelen = f(s.originalMaxPositions / s.highFreqFactor);
  const wavelen = f(f(2 * Math.PI) / inv);
  // Long wavelengths are slowed by the factor, short ones kept, the band between blended smoothly.
  const llama = wavelen > lowWavelen ? f(inv / s.factor) : inv;
  if (wavelen < highWavelen || wavelen > lowWavelen) return llama;
  const smooth = f(f(f(s.originalMaxPositions / wavelen) - s.lowFreqFactor) / f(s.highFreqFactor - s.lowFreqFactor));
  return f(f(f(f(1 - smooth) * llama) / s.factor) + f(smooth * llama));
}

/** cos and sin of pos · inv_freq[i] for positions 0 … count-1: [pos][i][cos, sin]. */
export function ropeTable(invFreq: Float32Array, count: number): Float32Array {
  const half = invFreq.length;
  const table = new Float32Array(count * half * 2);
  for (let pos = 0; pos < count; pos++) {
    for (let i = 0; i < half; i++) {
      const angle = f(pos * invFreq[i]!);
      table[(pos * half + i) * 2] = Math.cos(angle);
      table[(pos * half + i) * 2 + 1] = Math.sin(angle);
    }
  }
  return table;
}
