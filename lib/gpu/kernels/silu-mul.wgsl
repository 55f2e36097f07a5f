// The gate of a SiLU-gated MLP: h[r, i] = silu(gu[r, i]) · gu[r, inner + i], from one fused
// gate|up projection [rows, 2 · inner].

struct Params {
  rows: u32,
  inner: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> gate_up: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let e = (group.x + group.y * groups.x) * 256u + t;
  if (e >= p.rows * p.inner) {
    return;
  }
  let row = e / p.inner;
  let i = e % p.inner;
  let g = gate_up[row * 2u * p.inner + i];
  let u = gate_up[row * 2u * p.inner + p.inner + i];
  h[e] = g / (1.0 + exp(-g)) * u;
}
