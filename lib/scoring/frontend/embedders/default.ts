import { decodePng, type RgbaImage } from "../png";
import type { ImageEmbedder } from "./types";

// A weight-free stand-in for CLIP (see README.md in this folder): the screenshot described by what
// a person compares, in six blocks, each scaled to unit length and weighted, so that the cosine of
// two embeddings is the weighted mean of the blocks' cosines. Where things are (colour layout,
// where the text and detail sit), which colours are used, how much of each colour and how much
// text there is (whatever the arrangement), and how long the page is. Its scores rank pages
// sensibly but are not comparable with the paper's CLIP numbers.

export const DEFAULT_EMBEDDER_ID = "default-v2";

/** Width the screenshot is area-averaged down to before anything is measured. */
const WORK_WIDTH = 320;
/** Lightness steps (in L*) between neighbouring working pixels that count as an edge (text, borders, pictures). */
const EDGE_STEP = 10;
/** Keeps an empty grid block (a blank page has no edges) from being a zero vector. */
const FLOOR = 0.05;

/** Each block's share of the cosine (its weight squared); they sum to 1. */
const SHARES = { layout: 0.1, structure: 0.2, palette: 0.05, colours: 0.25, ink: 0.35, length: 0.05 } as const;

interface Working {
  /** Working size. */
  w: number;
  h: number;
  /** CIE L*a*b* (D65), 3 a pixel. */
  lab: Float32Array;
  /** 1 where a pixel differs from its right or lower neighbour by more than EDGE_STEP in L*. */
  edges: Uint8Array;
  /** Working pixels in one 1280x800 screen at this width: amounts are counted in screens. */
  screen: number;
}

const SRGB_TO_LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** The image area-averaged (in linear light) down to `width` pixels across, in L*a*b*, with its edge map. */
function working(img: RgbaImage, width: number): Working {
  const w = Math.max(1, Math.min(width, img.width));
  const scale = img.width / w;
  const h = Math.max(1, Math.round(img.height / scale));
  // Source column range of each working column, computed once.
  const x0s = new Int32Array(w);
  const x1s = new Int32Array(w);
  for (let x = 0; x < w; x++) {
    x0s[x] = Math.floor(x * scale);
    x1s[x] = Math.max(x0s[x]! + 1, Math.min(img.width, Math.floor((x + 1) * scale)));
  }
  const lab = new Float32Array(w * h * 3);
  // Linear-light sums of the current band of source rows, one a working pixel.
  const sums = new Float64Array(w * 3);
  const data = img.data;
  const toLinear = SRGB_TO_LINEAR;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * scale);
    const y1 = Math.max(y0 + 1, Math.min(img.height, Math.floor((y + 1) * scale)));
    sums.fill(0);
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * img.width * 4;
      for (let x = 0; x < w; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        const end = row + x1s[x]! * 4;
        for (let o = row + x0s[x]! * 4; o < end; o += 4) {
          r += toLinear[data[o]!]!;
          g += toLinear[data[o + 1]!]!;
          b += toLinear[data[o + 2]!]!;
        }
        sums[x * 3] = sums[x * 3]! + r;
        sums[x * 3 + 1] = sums[x * 3 + 1]! + g;
        sums[x * 3 + 2] = sums[x * 3 + 2]! + b;
      }
    }
    for (let x = 0; x < w; x++) {
      const n = (y1 - y0) * (x1s[x]! - x0s[x]!);
      linearToLab(sums[x * 3]! / n, sums[x * 3 + 1]! / n, sums[x * 3 + 2]! / n, lab, (y * w + x) * 3);
    }
  }
  return { w, h, lab, edges: edgeMap(lab, w, h), screen: w * w * 0.625 };
}

// Per-pixel helpers are top-level functions, not closures: a closure made on every call is slow
// where the code is run through tsx (esbuild names each one as it is made).
function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116;
}

function linearToLab(r: number, g: number, b: number, out: Float32Array, o: number): void {
  const fx = labF((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047);
  const fy = labF(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
  const fz = labF((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883);
  out[o] = 116 * fy - 16;
  out[o + 1] = 500 * (fx - fy);
  out[o + 2] = 200 * (fy - fz);
}

/** 1 where L* (every `stride`-th value of `lightness`) steps by more than EDGE_STEP to the right or below. */
function edgeMap(lightness: ArrayLike<number>, w: number, h: number, stride = 3): Uint8Array {
  const edges = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = lightness[i * stride]!;
      const dx = x + 1 < w ? Math.abs(lightness[(i + 1) * stride]! - l) : 0;
      const dy = y + 1 < h ? Math.abs(lightness[(i + w) * stride]! - l) : 0;
      edges[i] = dx + dy > EDGE_STEP ? 1 : 0;
    }
  }
  return edges;
}

/** Scales `v` to unit length after appending FLOOR, so no grid is ever all zeros. */
function unit(v: number[]): number[] {
  v.push(FLOOR);
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

/** Unit-length parts joined so that the cosine of two joins is the mean of the parts' cosines. */
function join(parts: number[][]): number[] {
  const k = 1 / Math.sqrt(parts.length);
  return parts.flat().map((x) => x * k);
}

/** Per-cell means over a cols x rows grid laid over the whole page of `k` values a working pixel. */
function gridMeans(wk: Working, values: ArrayLike<number>, k: number, cols: number, rows: number): number[] {
  const { w, h } = wk;
  const sums = new Float64Array(cols * rows * k);
  const counts = new Float64Array(cols * rows);
  const cellX = Int32Array.from({ length: w }, (_, x) => Math.min(cols - 1, Math.floor((x * cols) / w)));
  for (let y = 0; y < h; y++) {
    const rowCell = Math.min(rows - 1, Math.floor((y * rows) / h)) * cols;
    for (let x = 0; x < w; x++) {
      const c = rowCell + cellX[x]!;
      const i = (y * w + x) * k;
      for (let j = 0; j < k; j++) sums[c * k + j] = sums[c * k + j]! + values[i + j]!;
      counts[c] = counts[c]! + 1;
    }
  }
  return Array.from(sums, (s, i) => s / Math.max(1, counts[Math.floor(i / k)]!));
}

/**
 * Layout: the mean colour of each cell of 2x2, 4x4 and 8x8 grids laid over the whole page, as its
 * difference from white, (L* - 100, a*, b*) / 100: where the page's coloured bands, boxes and
 * pictures are. Each grid is a unit part of its own, its cells divided by its size (so the floor
 * weighs more on finer grids, whose cells say less each).
 */
function layoutBlock(wk: Working): number[] {
  // Sums on the 8x8 grid; a 4x4 or 2x2 cell is exactly the union of 8x8 cells (floor(floor(q)/2) = floor(q/2)).
  const { w, h, lab } = wk;
  const sums = new Float64Array(64 * 3);
  const counts = new Float64Array(64);
  const cellX = new Int32Array(w);
  for (let x = 0; x < w; x++) cellX[x] = Math.min(7, Math.floor((x * 8) / w));
  for (let y = 0; y < h; y++) {
    const row = Math.min(7, Math.floor((y * 8) / h)) * 8;
    for (let x = 0; x < w; x++) {
      const c = row + cellX[x]!;
      const i = (y * w + x) * 3;
      sums[c * 3] = sums[c * 3]! + lab[i]!;
      sums[c * 3 + 1] = sums[c * 3 + 1]! + lab[i + 1]!;
      sums[c * 3 + 2] = sums[c * 3 + 2]! + lab[i + 2]!;
      counts[c] = counts[c]! + 1;
    }
  }
  const parts: number[][] = [];
  for (const n of [2, 4, 8]) {
    const f = 8 / n;
    const cs = new Float64Array(n * n * 3);
    const cn = new Float64Array(n * n);
    for (let c = 0; c < 64; c++) {
      const to = Math.floor(Math.floor(c / 8) / f) * n + Math.floor((c % 8) / f);
      for (let j = 0; j < 3; j++) cs[to * 3 + j] = cs[to * 3 + j]! + sums[c * 3 + j]!;
      cn[to] = cn[to]! + counts[c]!;
    }
    const v: number[] = [];
    for (let c = 0; c < n * n; c++) {
      const k = Math.max(1, cn[c]!) * 100 * n;
      // An empty cell (a page shorter than the grid) counts as white.
      v.push(cn[c] ? cs[c * 3]! / k - 1 / n : 0, cs[c * 3 + 1]! / k, cs[c * 3 + 2]! / k);
    }
    parts.push(unit(v));
  }
  return join(parts);
}

/**
 * Structure: the share of edge pixels (text, borders, pictures) along the page (16 bands, full
 * width) and in each cell of an 8x8 grid (divided by 8, as the layout's), square-rooted: where the
 * content sits, whatever its colour.
 */
function structureBlock(wk: Working): number[] {
  const bands = gridMeans(wk, wk.edges, 1, 1, 16).map(Math.sqrt);
  const grid = gridMeans(wk, wk.edges, 1, 8, 8).map((v) => Math.sqrt(v / 8));
  return join([unit(bands), unit(grid)]);
}

/**
 * Palette: the share of the page in each colour, as a histogram over L*a*b* with bins 20 apart
 * (L* 0..100, a* and b* -60..60) that a colour shares with its neighbouring bins in proportion
 * (so a colour on a bin edge does not flip between bins), fourth-rooted so that the accents are
 * not drowned by the background.
 */
function paletteBlock(wk: Working): number[] {
  const hist = new Float64Array(6 * 7 * 7);
  const { lab } = wk;
  const n = wk.w * wk.h;
  for (let i = 0; i < n; i++) {
    const l = Math.min(5, Math.max(0, lab[i * 3]! / 20));
    const a = Math.min(6, Math.max(0, (lab[i * 3 + 1]! + 60) / 20));
    const b = Math.min(6, Math.max(0, (lab[i * 3 + 2]! + 60) / 20));
    const l0 = Math.min(4, Math.floor(l));
    const a0 = Math.min(5, Math.floor(a));
    const b0 = Math.min(5, Math.floor(b));
    const fl = l - l0;
    const fa = a - a0;
    const fb = b - b0;
    for (let dl = 0; dl < 2; dl++) {
      const wl = dl ? fl : 1 - fl;
      for (let da = 0; da < 2; da++) {
        const wa = wl * (da ? fa : 1 - fa);
        for (let db = 0; db < 2; db++) {
          const at = ((l0 + dl) * 7 + a0 + da) * 7 + b0 + db;
          hist[at] = hist[at]! + wa * (db ? fb : 1 - fb);
        }
      }
    }
  }
  return unit(Array.from(hist, (c) => (c / n) ** 0.25));
}

/** Membership of `x` in the classes between `bounds`, each bound blurred over +-ramp (memberships sum to 1). */
function rampMembership(
  x: number,
  bounds: readonly number[],
  ramp: number,
  out: Float64Array,
  at: number,
  weight: number,
): void {
  let below = 1;
  for (let k = 0; k <= bounds.length; k++) {
    const above = k < bounds.length ? Math.min(1, Math.max(0, (x - bounds[k]! + ramp) / (2 * ramp))) : 0;
    // Class k holds what is past bound k-1 (below) and not yet past bound k (above).
    const m = below - above;
    if (m > 0) out[at + k] = out[at + k]! + weight * m;
    below = above;
  }
}

const GREY_BOUNDS = [25, 55, 85] as const;
/** Hue sectors of 45 degrees of the a*b* plane, the first starting at the +a* axis. */
const HUE_SECTOR = 45;

/**
 * Adds `weight` to 12 colour classes: four greys (black, dark, light, white: L* bounds 25, 55, 85)
 * and eight hues (45-degree sectors of the a*b* plane), chroma blending grey into hue between 9 and
 * 15, every bound blurred so that a colour near one counts in both classes.
 */
function colourClass(l: number, a: number, b: number, out: Float64Array, weight: number): void {
  const chroma = Math.min(1, Math.max(0, (Math.sqrt(a * a + b * b) - 9) / 6));
  if (chroma < 1) rampMembership(l, GREY_BOUNDS, 4, out, 0, weight * (1 - chroma));
  if (chroma > 0) {
    const deg = ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
    const pos = deg / HUE_SECTOR;
    const s = Math.floor(pos) % 8;
    const f = pos - Math.floor(pos);
    // Within 8 degrees (f within 8/45) of a sector's edge, shared linearly with the neighbour.
    const ramp = 8 / HUE_SECTOR;
    const toNext = f > 1 - ramp ? (f - (1 - ramp)) / (2 * ramp) : 0;
    const toPrev = f < ramp ? (ramp - f) / (2 * ramp) : 0;
    const own = 1 - toNext - toPrev;
    out[4 + s] = out[4 + s]! + weight * chroma * own;
    out[4 + ((s + 1) % 8)] = out[4 + ((s + 1) % 8)]! + weight * chroma * toNext;
    out[4 + ((s + 7) % 8)] = out[4 + ((s + 7) % 8)]! + weight * chroma * toPrev;
  }
}

/**
 * How much: log2 of each amount (with `floor` added, so that traces do not count), as soft
 * membership (sigma half an octave) of bins half an octave apart from log2(floor) to `top`, one
 * unit part per amount. Two pages' parts have a cosine near exp(-d^2) for amounts d octaves apart.
 */
function amounts(values: ArrayLike<number>, floor: number, top: number): number[] {
  const lo = Math.log2(floor);
  const parts: number[][] = [];
  for (let i = 0; i < values.length; i++) {
    const t = Math.min(top + 1, Math.log2(values[i]! + floor));
    const v: number[] = [];
    for (let c = lo; c <= top + 1e-9; c += 0.5) v.push(Math.exp(-((t - c) ** 2) / (2 * 0.5 ** 2)));
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    parts.push(v.map((x) => x / n));
  }
  return join(parts);
}

/**
 * Colours: how much of the page, in screens (1280x800), each of the 12 colour classes covers. Unlike
 * the palette these are amounts, not shares, so a page that keeps its boxes and pictures but loses
 * its spacing keeps its coloured amounts.
 */
function coloursBlock(wk: Working): number[] {
  const total = new Float64Array(12);
  const { lab } = wk;
  for (let i = 0; i < wk.w * wk.h; i++) colourClass(lab[i * 3]!, lab[i * 3 + 1]!, lab[i * 3 + 2]!, total, 1);
  return amounts(
    Array.from(total, (c) => c / wk.screen),
    0.01,
    5,
  );
}

/**
 * Ink: how much text and detail there is, whatever its arrangement: the edge pixels, in screens, of
 * each of the 12 colour classes (dark text, grey text, white text on colour, coloured links...),
 * and the edge pixels at three scales (the working image halved and halved again, where small
 * text fades and headings, buttons and pictures remain). The two halves weigh the same.
 */
function inkBlock(wk: Working): number[] {
  const { w, h, lab, edges } = wk;
  const byColour = new Float64Array(12);
  for (let i = 0; i < w * h; i++) if (edges[i]) colourClass(lab[i * 3]!, lab[i * 3 + 1]!, lab[i * 3 + 2]!, byColour, 1);
  const byScale: number[] = [];
  let lightness: Float32Array = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) lightness[i] = lab[i * 3]!;
  let lw = w;
  let lh = h;
  for (let level = 0; level < 3; level++) {
    const e = level === 0 ? edges : edgeMap(lightness, lw, lh, 1);
    let count = 0;
    for (let i = 0; i < e.length; i++) count += e[i]!;
    byScale.push(count / (lw * lw * 0.625));
    [lightness, lw, lh] = halve(lightness, lw, lh);
  }
  return join([
    amounts(
      Array.from(byColour, (c) => c / wk.screen),
      0.003,
      0,
    ),
    amounts(byScale, 0.003, 0),
  ]);
}

/** A single-channel image averaged over 2x2 blocks. */
function halve(v: Float32Array, w: number, h: number): [Float32Array, number, number] {
  const w2 = Math.max(1, w >> 1);
  const h2 = Math.max(1, h >> 1);
  const out = new Float32Array(w2 * h2);
  for (let y = 0; y < h2; y++) {
    const r0 = Math.min(h - 1, 2 * y) * w;
    const r1 = Math.min(h - 1, 2 * y + 1) * w;
    for (let x = 0; x < w2; x++) {
      const x0 = Math.min(w - 1, 2 * x);
      const x1 = Math.min(w - 1, 2 * x + 1);
      out[y * w2 + x] = (v[r0 + x0]! + v[r0 + x1]! + v[r1 + x0]! + v[r1 + x1]!) / 4;
    }
  }
  return [out, w2, h2];
}

/** Length: the page's height in widths, as soft membership of bins half an octave apart. */
function lengthBlock(width: number, height: number): number[] {
  const t = Math.log2(height / width / 0.625); // 0 for one 1280x800 screen
  const v: number[] = [];
  for (let k = 0; k < 10; k++) v.push(Math.exp(-((t - k * 0.5) ** 2) / (2 * 0.35 ** 2)));
  return unit(v);
}

export function defaultEmbedding(img: RgbaImage): Float32Array {
  const wk = working(img, WORK_WIDTH);
  const blocks: [number, number[]][] = [
    [SHARES.layout, layoutBlock(wk)],
    [SHARES.structure, structureBlock(wk)],
    [SHARES.palette, paletteBlock(wk)],
    [SHARES.colours, coloursBlock(wk)],
    [SHARES.ink, inkBlock(wk)],
    [SHARES.length, lengthBlock(img.width, img.height)],
  ];
  const out = new Float32Array(blocks.reduce((s, [, v]) => s + v.length, 0));
  let o = 0;
  for (const [share, v] of blocks) {
    const k = Math.sqrt(share);
    for (const x of v) out[o++] = x * k;
  }
  return out;
}

/** The weight-free embedder used where no CLIP checkpoint is configured. */
export class DefaultEmbedder implements ImageEmbedder {
  readonly id = DEFAULT_EMBEDDER_ID;

  async embed(png: Uint8Array): Promise<Float32Array> {
    return defaultEmbedding(decodePng(png));
  }
}
