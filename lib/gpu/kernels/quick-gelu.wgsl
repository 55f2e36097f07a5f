// CLIP's activation, in place: x · sigmoid(1.702 x) (transformers' quick_gelu), one element a thread.

struct Params {
  count: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let e = (group.x + group.y * groups.x) * 256u + t;
  if (e >= p.count) {
    return;
  }
  let v = x[e];
  x[e] = v / (1.0 + exp(-1.702 * v));
}
