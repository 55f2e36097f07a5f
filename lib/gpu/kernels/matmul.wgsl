// y[M, N] = x[M, K] · w[N, K]ᵀ (+ bias[N]) (+ residual[M, N]), accumulated in f32: a linear layer
// as checkpoints store it (out × in). Tiles of 64 × 64 outputs, 16 × 16 threads with 4 × 4 each,
// K in steps of 16 through workgroup memory. The bias, when there is one, sits in the weight buffer
// right after the matrix (the loader puts it there), so it is read in the weights' own format.
// `weight()` comes from weights.wgsl.

// Bias and residual are uniform flags rather than override constants: one pipeline per weight
// format (software adapters take seconds to compile each).
struct Params {
  m: u32,
  n: u32,
  k: u32,
  bias_at: u32,       // element index of bias[0] in w
  w_at: u32,          // element index of w[0, 0]
  has_bias: u32,
  has_residual: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<storage, read> residual: array<f32>;

const TM = 64u;
const TN = 64u;
const TK = 16u;

var<workgroup> xs: array<array<f32, 64>, 16>; // [k][m]
var<workgroup> ws: array<array<f32, 64>, 16>; // [k][n]

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row0 = group.y * TM;
  let col0 = group.x * TN;
  var acc: array<array<f32, 4>, 4>;
  for (var k0 = 0u; k0 < p.k; k0 += TK) {
    for (var i = 0u; i < 4u; i++) {
      let e = t + i * 256u;
      let r = e / TK;
      let c = e % TK;
      let k = k0 + c;
      var xv = 0.0;
      if (row0 + r < p.m && k < p.k) {
        xv = x[(row0 + r) * p.k + k];
      }
      xs[c][r] = xv;
      var wv = 0.0;
      if (col0 + r < p.n && k < p.k) {
        wv = weight(p.w_at + (col0 + r) * p.k + k);
      }
      ws[c][r] = wv;
    }
    workgroupBarrier();
    for (var c = 0u; c < TK; c++) {
      var a: array<f32, 4>;
      var b: array<f32, 4>;
      for (var i = 0u; i < 4u; i++) {
        a[i] = xs[c][local.y + 16u * i];
        b[i] = ws[c][local.x + 16u * i];
      }
      for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
          acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let row = row0 + local.y + 16u * i;
    if (row >= p.m) {
      continue;
    }
    for (var j = 0u; j < 4u; j++) {
      let col = col0 + local.x + 16u * j;
      if (col >= p.n) {
        continue;
      }
      var v = acc[i][j];
      if (p.has_bias != 0u) {
        v += weight(p.bias_at + col);
      }
      if (p.has_residual != 0u) {
        v += residual[row * p.n + col];
      }
      y[row * p.n + col] = v;
    }
  }
}
