// Weights, read one element at a time as f32 (included ahead of every kernel that reads weights).
// Checkpoints keep f32, f16 or bf16; all three stay as they are in one u32 buffer: f16 and bf16 two
// to a word, the lower half first. f16 is widened with unpack2x16float (adapters without shader-f16,
// such as Dawn on an H100, still read half the bytes); bf16 is the top half of an f32.

override WEIGHTS: u32 = 0u; // 0 f32, 1 f16, 2 bf16

@group(0) @binding(1) var<storage, read> w: array<u32>;

fn weight(i: u32) -> f32 {
  if (WEIGHTS == 0u) {
    return bitcast<f32>(w[i]);
  }
  let word = w[i >> 1u];
  if (WEIGHTS == 1u) {
    return unpack2x16float(word)[i & 1u];
  }
  return bitcast<f32>(select(word << 16u, word & 0xffff0000u, (i & 1u) == 1u));
}
