// Pillow's Image.resize(size, Image.BICUBIC) for 8-bit RGB images, reproduced operation for
// operation so CLIP sees the same pixels it would through CLIPImageProcessor: a separable
// convolution (horizontal pass, then vertical) with the a = -0.5 cubic kernel, whose support
// widens with the downscale factor (so downscaling is antialiased), coefficients normalised
// to sum to one and then fixed to 22-bit integers, each pass rounding and clamping to uint8.

export interface Rgb8 {
  width: number;
  height: number;
  /** Row-major RGB, 3 bytes a pixel. */
  data: Uint8Array;
}

const PRECISION_BITS = 32 - 8 - 2;
const BICUBIC_SUPPORT = 2;

function bicubic(x: number): number {
  const a = -0.5;
  if (x < 0) x = -x;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

interface Coefficients {
  ksize: number;
  /** For each output pixel: first input pixel, number of input pixels. */
  bounds: Int32Array;
  /** Fixed-point weights, ksize a pixel. */
  kk: Int32Array;
}

/** Pillow's precompute_coeffs + normalize_coeffs_8bpc for a box [in0, in1) of an axis. */
function coefficients(inSize: number, in0: number, in1: number, outSize: number): Coefficients {
  const scale = (in1 - in0) / outSize;
  const filterscale = scale < 1 ? 1 : scale;
  const support = BICUBIC_SUPPORT * filterscale;
  const ksize = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const kk = new Int32Array(outSize * ksize);
  const k = new Float64Array(ksize);
  for (let xx = 0; xx < outSize; xx++) {
    const center = in0 + (xx + 0.5) * scale;
    const ss = 1 / filterscale;
    // C's (int) truncates toward zero.
    let xmin = Math.trunc(center - support + 0.5);
    if (xmin < 0) xmin = 0;
    let xmax = Math.trunc(center + support + 0.5);
    if (xmax > inSize) xmax = inSize;
    xmax -= xmin;
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const w = bicubic((x + xmin - center + 0.5) * ss);
      k[x] = w;
      ww += w;
    }
    for (let x = 0; x < ksize; x++) {
      let w = x < xmax ? k[x]! : 0;
      if (x < xmax && ww !== 0) w /= ww;
      kk[xx * ksize + x] =
        w < 0 ? Math.trunc(-0.5 + w * (1 << PRECISION_BITS)) : Math.trunc(0.5 + w * (1 << PRECISION_BITS));
    }
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  return { ksize, bounds, kk };
}

function clip8(v: number): number {
  const x = v >> PRECISION_BITS;
  return x < 0 ? 0 : x > 255 ? 255 : x;
}

const HALF = 1 << (PRECISION_BITS - 1);

function horizontal(src: Rgb8, outWidth: number, c: Coefficients): Rgb8 {
  const { width: inW, height } = src;
  const out = new Uint8Array(outWidth * height * 3);
  for (let y = 0; y < height; y++) {
    const row = y * inW * 3;
    for (let xx = 0; xx < outWidth; xx++) {
      const xmin = c.bounds[xx * 2]!;
      const xmax = c.bounds[xx * 2 + 1]!;
      const kOff = xx * c.ksize;
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      for (let x = 0; x < xmax; x++) {
        const w = c.kk[kOff + x]!;
        const p = row + (x + xmin) * 3;
        s0 += src.data[p]! * w;
        s1 += src.data[p + 1]! * w;
        s2 += src.data[p + 2]! * w;
      }
      const o = (y * outWidth + xx) * 3;
      out[o] = clip8(s0);
      out[o + 1] = clip8(s1);
      out[o + 2] = clip8(s2);
    }
  }
  return { width: outWidth, height, data: out };
}

function vertical(src: Rgb8, outHeight: number, c: Coefficients): Rgb8 {
  const { width } = src;
  const out = new Uint8Array(width * outHeight * 3);
  for (let yy = 0; yy < outHeight; yy++) {
    const ymin = c.bounds[yy * 2]!;
    const ymax = c.bounds[yy * 2 + 1]!;
    const kOff = yy * c.ksize;
    for (let xx = 0; xx < width; xx++) {
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      for (let y = 0; y < ymax; y++) {
        const w = c.kk[kOff + y]!;
        const p = ((y + ymin) * width + xx) * 3;
        s0 += src.data[p]! * w;
        s1 += src.data[p + 1]! * w;
        s2 += src.data[p + 2]! * w;
      }
      const o = (yy * width + xx) * 3;
      out[o] = clip8(s0);
      out[o + 1] = clip8(s1);
      out[o + 2] = clip8(s2);
    }
  }
  return { width, height: outHeight, data: out };
}

/** Image.resize((width, height), Image.BICUBIC) of an RGB image. */
export function resizeBicubic(src: Rgb8, width: number, height: number): Rgb8 {
  if (width === src.width && height === src.height) return { width, height, data: src.data.slice() };
  let img = src;
  // Pillow skips a pass whose axis keeps its size; sums stay below 2^31 as in its C code.
  if (width !== src.width) img = horizontal(img, width, coefficients(src.width, 0, src.width, width));
  if (height !== src.height) img = vertical(img, height, coefficients(src.height, 0, src.height, height));
  return img;
}

/** 8-bit pixels with 3 (RGB) or 4 (RGBA) channels a pixel; only the first three are read. */
export interface Pixels8 {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array;
}

export interface CropBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The `crop` of Image.resize((width, height), Image.BICUBIC) of the RGB channels, computing only
 * that: each output pixel depends on its own filter support alone, so the passes run on the rows
 * and columns the crop needs (a tall screenshot cropped to 224 rows resizes a fraction of itself)
 * with the same arithmetic, byte for byte, as resizeBicubic followed by the crop.
 */
export function resizeBicubicCrop(src: Pixels8, width: number, height: number, crop: CropBox): Rgb8 {
  const { left, top, width: cw, height: ch } = crop;
  if (left < 0 || top < 0 || left + cw > width || top + ch > height)
    throw new Error(`cannot crop ${cw}x${ch} at ${left},${top} from ${width}x${height}`);
  const C = src.channels;
  const h = width !== src.width ? coefficients(src.width, 0, src.width, width) : null;
  const v = height !== src.height ? coefficients(src.height, 0, src.height, height) : null;
  // The input rows the crop's output rows read.
  let first = top;
  let last = top + ch;
  if (v) {
    first = v.bounds[top * 2]!;
    last = 0;
    for (let yy = top; yy < top + ch; yy++) {
      first = Math.min(first, v.bounds[yy * 2]!);
      last = Math.max(last, v.bounds[yy * 2]! + v.bounds[yy * 2 + 1]!);
    }
  }
  const rows = last - first;
  // Horizontal pass (or the columns as they are) over those rows: rows x cw, RGB.
  const mid = new Uint8Array(rows * cw * 3);
  const s = src.data;
  for (let y = 0; y < rows; y++) {
    const row = (first + y) * src.width * C;
    let o = y * cw * 3;
    for (let xx = left; xx < left + cw; xx++, o += 3) {
      if (!h) {
        const p = row + xx * C;
        mid[o] = s[p]!;
        mid[o + 1] = s[p + 1]!;
        mid[o + 2] = s[p + 2]!;
        continue;
      }
      const xmin = h.bounds[xx * 2]!;
      const n = h.bounds[xx * 2 + 1]!;
      const k = xx * h.ksize;
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      let p = row + xmin * C;
      for (let x = 0; x < n; x++, p += C) {
        const w = h.kk[k + x]!;
        s0 += s[p]! * w;
        s1 += s[p + 1]! * w;
        s2 += s[p + 2]! * w;
      }
      mid[o] = clip8(s0);
      mid[o + 1] = clip8(s1);
      mid[o + 2] = clip8(s2);
    }
  }
  if (!v) return { width: cw, height: ch, data: mid };
  // Vertical pass for the crop's rows, reading `mid` (row `first` of the input is its row 0).
  const out = new Uint8Array(cw * ch * 3);
  const stride = cw * 3;
  for (let yy = 0; yy < ch; yy++) {
    const ymin = v.bounds[(top + yy) * 2]! - first;
    const n = v.bounds[(top + yy) * 2 + 1]!;
    const k = (top + yy) * v.ksize;
    const o = yy * stride;
    for (let i = 0; i < stride; i++) {
      let sum = HALF;
      let p = ymin * stride + i;
      for (let y = 0; y < n; y++, p += stride) sum += mid[p]! * v.kk[k + y]!;
      out[o + i] = clip8(sum);
    }
  }
  return { width: cw, height: ch, data: out };
}
