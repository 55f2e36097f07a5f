// Weights in f16 on adapters with shader-f16: the same bytes as weights.wgsl's packed f16, read as
// f16 directly (included ahead of a kernel instead of weights.wgsl).
enable f16;

override WEIGHTS: u32 = 1u; // only f16 here

@group(0) @binding(1) var<storage, read> w: array<f16>;

fn weight(i: u32) -> f32 {
  return f32(w[i]);
}
