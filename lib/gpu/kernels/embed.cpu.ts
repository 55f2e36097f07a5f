// CPU reference of embed.wgsl.

export function embedCpu(table: Float32Array, d: number, ids: ArrayLike<number>): Float32Array {
  const out = new Float32Array(ids.length * d);
  for (let r = 0; r < ids.length; r++) out.set(table.subarray(ids[r]! * d, ids[r]! * d + d), r * d);
  return out;
}
