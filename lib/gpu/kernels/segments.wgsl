// Per-candidate totals of token log-probs: for each segment [start, end) of `values`, its sum and
// mean (0 for an empty segment: the host knows the lengths and says what an empty mean is). One
// workgroup per segment.

struct Params {
  segments: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read> ranges: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> totals: array<vec2<f32>>;  // (sum, mean)

var<workgroup> partial: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let seg = group.x + group.y * groups.x;
  var range = vec2<u32>(0u, 0u);
  if (seg < p.segments) {
    range = ranges[seg];
  }
  var s = 0.0;
  for (var i = range.x + t; i < range.y; i += 64u) {
    s += values[i];
  }
  partial[t] = s;
  workgroupBarrier();
  for (var half = 32u; half > 0u; half >>= 1u) {
    if (t < half) {
      partial[t] += partial[t + half];
    }
    workgroupBarrier();
  }
  if (t == 0u && seg < p.segments) {
    let n = max(1u, range.y - range.x);
    totals[seg] = vec2<f32>(partial[0], partial[0] / f32(n));
  }
}
