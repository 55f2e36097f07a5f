// Seeded numbers for kernel cases and generated weights (mulberry32: small, fast, reproducible).

export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` floats uniform in [-scale, scale). */
export function floats(random: () => number, n: number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (random() * 2 - 1) * scale;
  return out;
}

export function ints(random: () => number, n: number, below: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(random() * below);
  return out;
}

/** Largest |got − want| / max(1, |want|); NaN where only one side is NaN counts as infinite. */
export function maxError(got: ArrayLike<number>, want: ArrayLike<number>): number {
  if (got.length !== want.length) return Number.POSITIVE_INFINITY;
  let worst = 0;
  for (let i = 0; i < got.length; i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (Number.isNaN(g) || Number.isNaN(w)) {
      if (Number.isNaN(g) !== Number.isNaN(w)) return Number.POSITIVE_INFINITY;
      continue;
    }
    worst = Math.max(worst, Math.abs(g - w) / Math.max(1, Math.abs(w)));
  }
  return worst;
}
