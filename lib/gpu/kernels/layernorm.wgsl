// LayerNorm over each row: y = (x − mean) / sqrt(var + eps) · gamma + beta, biased variance as
// PyTorch, in f32 (gamma then beta in the weight buffer from `w_at`, read by weights.wgsl). Rows of x
// may be `x_stride` elements apart (CLIP's pooling normalises only each image's class token); y is
// dense. One workgroup per row; the mean is taken first and the variance around it, as the CPU does
// (one pass of Σx² would lose digits on rows far from zero).

struct Params {
  rows: u32,
  d: u32,
  eps: f32,
  w_at: u32,
  x_stride: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

var<workgroup> partial: array<f32, 256>;

fn reduce(t: u32) -> f32 {
  for (var half = 128u; half > 0u; half >>= 1u) {
    if (t < half) {
      partial[t] += partial[t + half];
    }
    workgroupBarrier();
  }
  return partial[0];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row = group.x + group.y * groups.x;
  // Uniform control flow for the barriers: a spare workgroup still takes part, on row 0.
  let live = row < p.rows;
  let base = select(0u, row, live) * p.x_stride;
  var s = 0.0;
  for (var i = t; i < p.d; i += 256u) {
    s += x[base + i];
  }
  partial[t] = s;
  workgroupBarrier();
  let mean = reduce(t) / f32(p.d);
  workgroupBarrier();
  var v = 0.0;
  for (var i = t; i < p.d; i += 256u) {
    let c = x[base + i] - mean;
    v = fma(c, c, v);
  }
  partial[t] = v;
  workgroupBarrier();
  let scale = inverseSqrt(reduce(t) / f32(p.d) + p.eps);
  if (!live) {
    return;
  }
  for (var i = t; i < p.d; i += 256u) {
    y[row * p.d + i] = (x[base + i] - mean) * scale * weight(p.w_at + i) + weight(p.w_at + p.d + i);
  }
}
