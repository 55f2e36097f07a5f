// Rotary embeddings on a fused q|k|v projection, row by row at each row's own position (Hugging Face's
// rotate-half layout: pair i with i + d/2): q is rotated where it lies; k, rotated, and v are laid out
// as [row, kv head, d] for attention (and kept as a prefix's cache). cos/sin come from a table the
// host computes (rope-table.ts), so large angles do not depend on the adapter's sin and cos.

struct Params {
  rows: u32,
  heads: u32,
  kv_heads: u32,
  head_dim: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> k_out: array<f32>;
@group(0) @binding(3) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(4) var<storage, read> table: array<f32>;
@group(0) @binding(5) var<storage, read> positions: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let half = p.head_dim / 2u;
  let q_items = p.heads * half;
  let k_items = p.kv_heads * half;
  let per_row = q_items + k_items + p.kv_heads * p.head_dim;
  let item = (group.x + group.y * groups.x) * 256u + t;
  let row = item / per_row;
  if (row >= p.rows) {
    return;
  }
  let e = item % per_row;
  let stride = (p.heads + 2u * p.kv_heads) * p.head_dim;
  let base = row * stride;
  let kv_base = row * p.kv_heads * p.head_dim;
  if (e >= q_items + k_items) {
    let v = e - q_items - k_items;
    v_out[kv_base + v] = qkv[base + (p.heads + p.kv_heads) * p.head_dim + v];
    return;
  }
  let is_q = e < q_items;
  let r = select(e - q_items, e, is_q);
  let head = r / half;
  let i = r % half;
  let at = (positions[row] * half + i) * 2u;
  let c = table[at];
  let s = table[at + 1u];
  if (is_q) {
    let o = base + head * p.head_dim + i;
    let a = qkv[o];
    let b = qkv[o + half];
    qkv[o] = a * c - b * s;
    qkv[o + half] = b * c + a * s;
  } else {
    let o = base + (p.heads + head) * p.head_dim + i;
    let a = qkv[o];
    let b = qkv[o + half];
    let out = kv_base + head * p.head_dim + i;
    k_out[out] = a * c - b * s;
    k_out[out + half] = b * c + a * s;
  }
}
