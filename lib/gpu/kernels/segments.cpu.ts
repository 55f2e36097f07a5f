// CPU reference of segments.wgsl (an empty segment's mean is 0, as there).

export function segmentTotalsCpu(
  values: ArrayLike<number>,
  ranges: ArrayLike<number>,
): Array<{ sum: number; mean: number }> {
  const out: Array<{ sum: number; mean: number }> = [];
  for (let s = 0; s < ranges.length / 2; s++) {
    let sum = 0;
    for (let i = ranges[2 * s]!; i < ranges[2 * s + 1]!; i++) sum += values[i]!;
    const n = ranges[2 * s + 1]! - ranges[2 * s]!;
    out.push({ sum, mean: n ? sum / n : 0 });
  }
  return out;
}
