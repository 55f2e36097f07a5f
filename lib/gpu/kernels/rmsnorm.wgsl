// RMSNorm over each row: y = x / sqrt(mean(x²) + eps) · w, in f32 (the weights in their own format,
// from weights.wgsl). One workgroup per row.

struct Params {
  rows: u32,
  d: u32,
  eps: f32,
  w_at: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row = group.x + group.y * groups.x;
  if (row >= p.rows) {
    return;
  }
  let base = row * p.d;
  var s = 0.0;
  for (var i = t; i < p.d; i += 256u) {
    let v = x[base + i];
    s = fma(v, v, s);
  }
  partial[t] = s;
  workgroupBarrier();
  for (var half = 128u; half > 0u; half >>= 1u) {
    if (t < half) {
      partial[t] += partial[t + half];
    }
    workgroupBarrier();
  }
  let scale = inverseSqrt(partial[0] / f32(p.d) + p.eps);
  for (var i = t; i < p.d; i += 256u) {
    y[base + i] = x[base + i] * scale * weight(p.w_at + i);
  }
}
