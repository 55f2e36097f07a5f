// Each row divided by its Euclidean length, in place (a zero row stays zero): CLIP's embeddings are
// compared by cosine. One workgroup per row.

struct Params {
  rows: u32,
  d: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> x: array<f32>;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row = group.x + group.y * groups.x;
  let live = row < p.rows;
  let base = select(0u, row, live) * p.d;
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
  let n = sqrt(partial[0]);
  if (!live || n == 0.0) {
    return;
  }
  for (var i = t; i < p.d; i += 256u) {
    x[base + i] = x[base + i] / n;
  }
}
