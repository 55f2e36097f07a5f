// Token embeddings: out[r, :] = table[ids[r], :] for the rows whose id falls in this part of the
// vocabulary [begin, end) (a large table may be split over buffers). Weights from weights.wgsl.

struct Params {
  rows: u32,
  d: u32,
  begin: u32,
  end: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let e = (group.x + group.y * groups.x) * 256u + t;
  if (e >= p.rows * p.d) {
    return;
  }
  let id = ids[e / p.d];
  if (id < p.begin || id >= p.end) {
    return;
  }
  out[e] = weight((id - p.begin) * p.d + e % p.d);
}
