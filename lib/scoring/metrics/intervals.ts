export interface Estimate {
  mean: number;
  /** Bounds of the 95% interval (normal approximation over the given units, clipped to [0, 1]). */
  low: number;
  high: number;
  n: number;
}

/**
 * The mean of per-unit values with a 95% interval. Units should be tasks, not episodes: samples of
 * one task are correlated, so callers average a task's samples first.
 */
export function meanWithInterval(values: readonly number[]): Estimate {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, low: mean, high: mean, n };
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const half = 1.959964 * Math.sqrt(variance / n);
  return { mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half), n };
}
