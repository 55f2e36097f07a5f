// Attention with grouped-query heads over packed rows that share a prefix. Each row belongs to a
// segment [start, end) of the packed rows (one candidate); it sees every key of the prefix (a cache
// computed once for all candidates) and the keys of its own segment: up to itself when `causal`, all
// of them otherwise (a uniform flag, so one pipeline serves both). A workgroup takes 16 query rows of
// one head and walks the keys 16 at a time with an online softmax (running max and sum per row), so
// scores never leave workgroup memory. head_dim ≤ 128.

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

const QT = 16u;
const KT = 16u;
const MAXD = 128u;
const HIDDEN = -3.0e38;

var<workgroup> qs: array<f32, 2048>;  // [QT][MAXD]
var<workgroup> ks: array<f32, 2048>;  // [KT][MAXD]
var<workgroup> vs: array<f32, 2048>;
var<workgroup> scores: array<f32, 256>;  // [QT][KT]
var<workgroup> own_keys: vec2<u32>;  // the tile's own-key range [lo, hi)

fn key_end(row: u32, seg: vec2<u32>) -> u32 {
  return select(seg.y, row + 1u, p.causal != 0u);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let tile0 = group.x * QT;
  let head = group.y;
  let kvh = head / (p.heads / p.kv_heads);
  let dim = p.head_dim;
  for (var e = t; e < QT * dim; e += 64u) {
    let r = e / dim;
    var value = 0.0;
    if (tile0 + r < p.rows) {
      value = q[(tile0 + r) * p.q_stride + head * dim + e % dim];
    }
    qs[r * MAXD + e % dim] = value;
  }
  if (t == 0u) {
    var lo = 0xffffffffu;
    var hi = 0u;
    for (var r = 0u; r < QT; r++) {
      let row = tile0 + r;
      if (row < p.rows) {
        let seg = segments[row];
        lo = min(lo, seg.x);
        hi = max(hi, key_end(row, seg));
      }
    }
    own_keys = vec2<u32>(lo, hi);
  }
  let own = workgroupUniformLoad(&own_keys);

  // This thread's share of the output: one row, every fourth dimension.
  let my_r = t / 4u;
  let quarter = t % 4u;
  let my_row = tile0 + my_r;
  let dims = (dim + 3u) / 4u;
  var m = HIDDEN;
  var l = 0.0;
  var acc: array<f32, 32>;

  let prefix_blocks = (p.prefix_len + KT - 1u) / KT;
  let own_blocks = select(0u, (own.y - own.x + KT - 1u) / KT, own.y > own.x);
  for (var b = 0u; b < prefix_blocks + own_blocks; b++) {
    let in_prefix = b < prefix_blocks;
    let key0 = select(own.x + (b - prefix_blocks) * KT, b * KT, in_prefix);
    let end = select(own.y, p.prefix_len, in_prefix);
    for (var e = t; e < KT * dim; e += 64u) {
      let key = key0 + e / dim;
      var kv = 0.0;
      var vv = 0.0;
      if (key < end) {
        let at = (key * p.kv_heads + kvh) * dim + e % dim;
        if (in_prefix) {
          kv = prefix_k[at];
          vv = prefix_v[at];
        } else {
          kv = k[at];
          vv = v[at];
        }
      }
      ks[(e / dim) * MAXD + e % dim] = kv;
      vs[(e / dim) * MAXD + e % dim] = vv;
    }
    workgroupBarrier();
    for (var i = 0u; i < 4u; i++) {
      let e = t + 64u * i;
      let r = e / KT;
      let c = e % KT;
      let key = key0 + c;
      let row = tile0 + r;
      var visible = key < end && row < p.rows;
      if (visible && !in_prefix) {
        let seg = segments[row];
        visible = key >= seg.x && key < key_end(row, seg);
      }
      var s = HIDDEN;
      if (visible) {
        var dot = 0.0;
        for (var d = 0u; d < dim; d++) {
          dot = fma(qs[r * MAXD + d], ks[c * MAXD + d], dot);
        }
        s = dot * p.scale;
      }
      scores[e] = s;
    }
    workgroupBarrier();
    var block_max = m;
    for (var c = 0u; c < KT; c++) {
      block_max = max(block_max, scores[my_r * KT + c]);
    }
    let alpha = exp(m - block_max);
    l *= alpha;
    for (var i = 0u; i < dims; i++) {
      acc[i] *= alpha;
    }
    for (var c = 0u; c < KT; c++) {
      let s = scores[my_r * KT + c];
      if (s > -1.0e38) {
        let weight = exp(s - block_max);
        l += weight;
        for (var i = 0u; i < dims; i++) {
          let d = quarter + 4u * i;
          if (d < dim) {
            acc[i] = fma(weight, vs[c * MAXD + d], acc[i]);
          }
        }
      }
    }
    m = block_max;
    workgroupBarrier();
  }
  if (my_row < p.rows && l > 0.0) {
    for (var i = 0u; i < dims; i++) {
      let d = quarter + 4u * i;
      if (d < dim) {
        out[(my_row * p.heads + head) * dim + d] = acc[i] / l;
      }
    }
  }
}
