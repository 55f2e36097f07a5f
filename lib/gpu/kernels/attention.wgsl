// Attention with grouped-query heads over packed rows that share a prefix. Each row belongs to a
// segment [start, end) of the packed rows (one candidate); it sees every key of the prefix (a cache
// computed once for all candidates) and the keys of its own segment: up to itself when `causal`, all
// of them otherwise (a uniform flag, so one pipeline serves both).
//
// A workgroup takes 64 query rows of one head, one row per thread, and walks the keys a block at a
// time through workgroup memory (every thread reads the same key: a broadcast); each thread scores
// its row against each key and adds the weighted value to its running sum, rescaling that sum when a
// new maximum appears (online softmax). Scores never leave the thread. HEAD_DIM ≤ 128 is
// fixed per pipeline (a model has one), so loops over it have known trip counts; a block holds
// min(64, 2048 / HEAD_DIM) keys (at most 16 KiB of keys and values).

override HEAD_DIM: u32 = 64u;

struct Params {
  rows: u32,
  heads: u32,
  kv_heads: u32,
  head_dim: u32,
  prefix_len: u32,
  q_stride: u32,  // elements between rows of q (q of head h starts at h · head_dim)
  scale: f32,
  causal: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> prefix_k: array<f32>;  // [prefix_len, kv_heads, head_dim]
@group(0) @binding(3) var<storage, read> prefix_v: array<f32>;
@group(0) @binding(4) var<storage, read> k: array<f32>;         // [rows, kv_heads, head_dim]
@group(0) @binding(5) var<storage, read> v: array<f32>;
@group(0) @binding(6) var<storage, read> segments: array<vec2<u32>>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;  // [rows, heads, head_dim]

const ROWS = 64u;
const BLOCK_FLOATS = 2048u;
const HIDDEN = -3.0e38;

var<workgroup> ks: array<f32, 2048>;  // [key][dim]
var<workgroup> vs: array<f32, 2048>;
var<workgroup> own_keys: vec2<u32>;  // the workgroup's own-key range [lo, hi)

fn key_end(row: u32, seg: vec2<u32>) -> u32 {
  return select(seg.y, row + 1u, p.causal != 0u);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let keys_per_block = min(64u, BLOCK_FLOATS / HEAD_DIM);
  let block_floats = keys_per_block * HEAD_DIM;
  let head = group.y;
  let kvh = head / (p.heads / p.kv_heads);
  let row0 = group.x * ROWS;
  let row = row0 + t;
  let live = row < p.rows;

  var seg = vec2<u32>(0u, 0u);
  if (live) {
    seg = segments[row];
  }
  let own_end = key_end(row, seg);
  if (t == 0u) {
    var lo = 0xffffffffu;
    var hi = 0u;
    for (var r = row0; r < min(row0 + ROWS, p.rows); r++) {
      let s = segments[r];
      lo = min(lo, s.x);
      hi = max(hi, key_end(r, s));
    }
    own_keys = vec2<u32>(lo, hi);
  }
  let own = workgroupUniformLoad(&own_keys);
  let lo = own.x;
  let hi = own.y;

  var qv: array<f32, 128>;
  var acc: array<f32, 128>;
  for (var d = 0u; d < HEAD_DIM; d++) {
    var value = 0.0;
    if (live) {
      value = q[row * p.q_stride + head * HEAD_DIM + d] * p.scale;
    }
    qv[d] = value;
    acc[d] = 0.0;
  }
  var m = HIDDEN;
  var l = 0.0;

  let prefix_blocks = (p.prefix_len + keys_per_block - 1u) / keys_per_block;
  let own_blocks = select(0u, (hi - lo + keys_per_block - 1u) / keys_per_block, hi > lo);
  for (var b = 0u; b < prefix_blocks + own_blocks; b++) {
    let in_prefix = b < prefix_blocks;
    let key0 = select(lo + (b - prefix_blocks) * keys_per_block, b * keys_per_block, in_prefix);
    let end = select(hi, p.prefix_len, in_prefix);
    workgroupBarrier();
    for (var e = t; e < block_floats; e += ROWS) {
      let key = key0 + e / HEAD_DIM;
      var kv = 0.0;
      var vv = 0.0;
      if (key < end) {
        let at = (key * p.kv_heads + kvh) * HEAD_DIM + e % HEAD_DIM;
        if (in_prefix) {
          kv = prefix_k[at];
          vv = prefix_v[at];
        } else {
          kv = k[at];
          vv = v[at];
        }
      }
      ks[e] = kv;
      vs[e] = vv;
    }
    workgroupBarrier();
    // Which of the block's keys this row sees.
    var first = 0u;
    var last = min(keys_per_block, end - key0);
    if (!in_prefix) {
      first = select(0u, seg.x - key0, seg.x > key0);
      last = select(0u, min(last, own_end - key0), own_end > key0);
    }
    if (!live) {
      last = 0u;
    }
    for (var c = first; c < last; c++) {
      var s = 0.0;
      for (var d = 0u; d < HEAD_DIM; d++) {
        s = fma(qv[d], ks[c * HEAD_DIM + d], s);
      }
      // A new maximum (rare after the first keys) rescales what was summed so far.
      if (s > m) {
        let alpha = exp(m - s);
        l *= alpha;
        for (var d = 0u; d < HEAD_DIM; d++) {
          acc[d] *= alpha;
        }
        m = s;
      }
      let w = exp(s - m);
      l += w;
      for (var d = 0u; d < HEAD_DIM; d++) {
        acc[d] = fma(w, vs[c * HEAD_DIM + d], acc[d]);
      }
    }
  }
  if (live && l > 0.0) {
    for (var d = 0u; d < HEAD_DIM; d++) {
      out[(row * p.heads + head) * HEAD_DIM + d] = acc[d] / l;
    }
  }
}
