// CPU reference of patches.wgsl: per image a zero row (the class token's slot), then each patch of
// pixels [3, size, size] flattened channel-major, as the patch convolution's kernels are.

export function patchesCpu(pixels: Float32Array, images: number, size: number, patch: number): Float32Array {
  const grid = size / patch;
  const tokens = 1 + grid * grid;
  const width = 3 * patch * patch;
  const out = new Float32Array(images * tokens * width);
  for (let b = 0; b < images; b++) {
    for (let g = 0; g < grid * grid; g++) {
      const gy = Math.floor(g / grid);
      const gx = g % grid;
      let o = (b * tokens + 1 + g) * width;
      for (let c = 0; c < 3; c++) {
        for (let py = 0; py < patch; py++) {
          const row = ((b * 3 + c) * size + gy * patch + py) * size + gx * patch;
          out.set(pixels.subarray(row, row + patch), o);
          o += patch;
        }
      }
    }
  }
  return out;
}
