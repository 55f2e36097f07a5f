// y[M, N] = x[M, K] · w[N, K]ᵀ (+ bias[N]) (+ residual[M, N]) for a few rows (M ≤ 4: a decode step of
// generation), where matmul.wgsl's 64-row tiles would compute 63 rows for nothing. A workgroup takes
// 8 output columns, 32 threads each: they walk K 32 apart (neighbouring threads read neighbouring
// weights), keep one sum per row, and fold their 32 partial sums through workgroup memory. Same
// parameters and bindings as matmul.wgsl (matmul.ts picks one or the other); `weight()` comes from
// weights.wgsl. Sums are zeroed by hand (see lm-head-lse.wgsl on SwiftShader).

struct Params {
  m: u32,
  n: u32,
  k: u32,
  bias_at: u32,
  w_at: u32,
  has_bias: u32,
  has_residual: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<storage, read> residual: array<f32>;

const COLS = 8u;
const LANES = 32u;
const MAX_M = 4u;

var<workgroup> partial: array<array<f32, 256>, 4>; // [row][column in the group · 32 + lane]

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let col = (group.x + group.y * groups.x) * COLS + t / LANES;
  let lane = t % LANES;
  var acc: array<f32, 4>;
  for (var r = 0u; r < MAX_M; r++) {
    acc[r] = 0.0;
  }
  if (col < p.n) {
    let wo = p.w_at + col * p.k;
    for (var c = lane; c < p.k; c += LANES) {
      let wv = weight(wo + c);
      for (var r = 0u; r < MAX_M; r++) {
        if (r < p.m) {
          acc[r] = fma(x[r * p.k + c], wv, acc[r]);
        }
      }
    }
  }
  for (var r = 0u; r < MAX_M; r++) {
    partial[r][t] = acc[r];
  }
  workgroupBarrier();
  for (var s = LANES / 2u; s > 0u; s = s >> 1u) {
    if (lane < s) {
      for (var r = 0u; r < MAX_M; r++) {
        partial[r][t] += partial[r][t + s];
      }
    }
    workgroupBarrier();
  }
  if (lane == 0u && col < p.n) {
    for (var r = 0u; r < MAX_M; r++) {
      if (r < p.m) {
        var v = partial[r][t];
        if (p.has_bias != 0u) {
          v += weight(p.bias_at + col);
        }
        if (p.has_residual != 0u) {
          v += residual[r * p.n + col];
        }
        y[r * p.n + col] = v;
      }
    }
  }
}
