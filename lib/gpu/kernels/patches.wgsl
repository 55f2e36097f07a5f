// The patch embedding's input: a stride-P convolution over [images, 3, S, S] pixels is a matmul
// over patches, so each patch is laid out as one row of 3·P·P values, channel-major like the
// convolution's kernels. Each image gets `tokens` = 1 + (S/P)² rows: row 0 is zeros (the class
// token's slot; the class embedding arrives with the position table as the matmul's residual),
// then the patches in raster order. One element a thread.

struct Params {
  images: u32,
  size: u32,    // S
  patch_size: u32,  // P
  tokens: u32,  // 1 + (S / P)²
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> pixels: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let e = (group.x + group.y * groups.x) * 256u + t;
  let width = 3u * p.patch_size * p.patch_size;
  if (e >= p.images * p.tokens * width) {
    return;
  }
  let row = e / width;
  let col = e % width;
  let image = row / p.tokens;
  let token = row % p.tokens;
  if (token == 0u) {
    out[e] = 0.0;
    return;
  }
  let grid = p.size / p.patch_size;
  let gy = (token - 1u) / grid;
  let gx = (token - 1u) % grid;
  let c = col / (p.patch_size * p.patch_size);
  let py = (col / p.patch_size) % p.patch_size;
  let px = col % p.patch_size;
  out[e] = pixels[((image * 3u + c) * p.size + gy * p.patch_size + py) * p.size + gx * p.patch_size + px];
}
