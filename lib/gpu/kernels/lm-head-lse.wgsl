// First half of the fused log-softmax over the vocabulary: the logits of each row (x · tableᵀ, the
// LM head) are computed a 64 × 64 tile at a time as in matmul.wgsl and folded at once into a running
// max and sum of exponentials; a workgroup covers 64 rows × 1024 tokens and writes one (max, sum) per
// row for that chunk. No logit or probability is ever stored. logprob-gather.wgsl finishes the job.

struct Params {
  rows: u32,
  tokens: u32,    // tokens in this part of the table
  d: u32,
  chunk0: u32,    // the part's first chunk among all the vocabulary's
  chunks: u32,    // chunks in the whole vocabulary (the stride of `partials`)
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> partials: array<vec2<f32>>;  // [rows, chunks]

const TILE = 64u;
const TK = 16u;
const CHUNK = 1024u;
const LOW = -3.0e38;

var<workgroup> xs: array<array<f32, 64>, 16>;
var<workgroup> ws: array<array<f32, 64>, 16>;
var<workgroup> red_m: array<array<f32, 16>, 64>;
var<workgroup> red_s: array<array<f32, 16>, 64>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row0 = group.y * TILE;
  let chunk_start = group.x * CHUNK;
  var m: array<f32, 4>;
  var s: array<f32, 4>;
  for (var i = 0u; i < 4u; i++) {
    m[i] = LOW;
    s[i] = 0.0;
  }
  for (var col0 = chunk_start; col0 < min(chunk_start + CHUNK, p.tokens); col0 += TILE) {
    // Zeroed by hand each tile: a declaration's zero-initialisation inside a loop is not kept by
    // every compiler (SwiftShader's carried the previous tile's sums over).
    var acc: array<array<f32, 4>, 4>;
    for (var i = 0u; i < 4u; i++) {
      for (var j = 0u; j < 4u; j++) {
        acc[i][j] = 0.0;
      }
    }
    for (var k0 = 0u; k0 < p.d; k0 += TK) {
      for (var i = 0u; i < 4u; i++) {
        let e = t + i * 256u;
        let r = e / TK;
        let c = e % TK;
        let k = k0 + c;
        var xv = 0.0;
        if (row0 + r < p.rows && k < p.d) {
          xv = x[(row0 + r) * p.d + k];
        }
        xs[c][r] = xv;
        var wv = 0.0;
        if (col0 + r < p.tokens && k < p.d) {
          wv = weight((col0 + r) * p.d + k);
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
      var tile_max = m[i];
      for (var j = 0u; j < 4u; j++) {
        if (col0 + local.x + 16u * j < p.tokens) {
          tile_max = max(tile_max, acc[i][j]);
        }
      }
      var sum = s[i] * exp(m[i] - tile_max);
      for (var j = 0u; j < 4u; j++) {
        if (col0 + local.x + 16u * j < p.tokens) {
          sum += exp(acc[i][j] - tile_max);
        }
      }
      m[i] = tile_max;
      s[i] = sum;
    }
  }
  // Fold the 16 threads that share each row.
  for (var i = 0u; i < 4u; i++) {
    red_m[local.y + 16u * i][local.x] = m[i];
    red_s[local.y + 16u * i][local.x] = s[i];
  }
  workgroupBarrier();
  if (t < TILE && row0 + t < p.rows) {
    var mm = LOW;
    for (var j = 0u; j < 16u; j++) {
      mm = max(mm, red_m[t][j]);
    }
    var ss = 0.0;
    for (var j = 0u; j < 16u; j++) {
      ss += red_s[t][j] * exp(red_m[t][j] - mm);
    }
    partials[(row0 + t) * p.chunks + p.chunk0 + group.x] = vec2<f32>(mm, ss);
  }
}
