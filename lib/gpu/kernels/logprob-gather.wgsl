// Second half of the fused log-softmax: for each (row, token) pair, log p(token) = x[row] ·
// table[token] − logsumexp(row), the logsumexp folded from lm-head-lse.wgsl's per-chunk (max, sum).
// Pairs whose token lies outside this part of the table [begin, end) are left to another dispatch.

struct Params {
  pairs: u32,
  d: u32,
  begin: u32,
  end: u32,
  chunks: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> partials: array<vec2<f32>>;
@group(0) @binding(4) var<storage, read> pairs: array<vec2<u32>>;  // (row, token)
@group(0) @binding(5) var<storage, read_write> logprobs: array<f32>;

const LOW = -3.0e38;

var<workgroup> red_m: array<f32, 64>;
var<workgroup> red_s: array<f32, 64>;
var<workgroup> red_dot: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let pair = group.x + group.y * groups.x;
  var row = 0u;
  var token = 0u;
  var mine = pair < p.pairs;
  if (mine) {
    row = pairs[pair].x;
    token = pairs[pair].y;
    mine = token >= p.begin && token < p.end;
  }
  var m = LOW;
  var s = 0.0;
  var dot = 0.0;
  if (mine) {
    for (var c = t; c < p.chunks; c += 64u) {
      let part = partials[row * p.chunks + c];
      let top = max(m, part.x);
      s = s * exp(m - top) + part.y * exp(part.x - top);
      m = top;
    }
    for (var i = t; i < p.d; i += 64u) {
      dot = fma(x[row * p.d + i], weight((token - p.begin) * p.d + i), dot);
    }
  }
  red_m[t] = m;
  red_s[t] = s;
  red_dot[t] = dot;
  workgroupBarrier();
  for (var half = 32u; half > 0u; half >>= 1u) {
    if (t < half) {
      let top = max(red_m[t], red_m[t + half]);
      red_s[t] = red_s[t] * exp(red_m[t] - top) + red_s[t + half] * exp(red_m[t + half] - top);
      red_m[t] = top;
      red_dot[t] += red_dot[t + half];
    }
    workgroupBarrier();
  }
  if (t == 0u && mine) {
    logprobs[pair] = red_dot[0] - (red_m[0] + log(red_s[0]));
  }
}
