import type { ClipVisionModel } from "./model";
import type { Gpu } from "../gpu";
import { attention } from "../kernels/attention";
import { l2Normalize } from "../kernels/l2-normalize";
import { layernorm } from "../kernels/layernorm";
import { matmul, type Linear } from "../kernels/matmul";
import { patches } from "../kernels/patches";
import { quickGeluMlp } from "../kernels/quick-gelu";
import { uploadWeights, type GpuWeights } from "../weights";

// CLIP's vision tower and projection on WebGPU, a batch of images at a time, from the same
// ClipVisionModel the CPU reference runs (clip-vision.ts's embedImage is the step-by-step reference
// for what is dispatched here). Rows are images × tokens, packed:
//
//   patches → matmul (the patch convolution; residual: class + position table) → pre-LayerNorm →
//   per layer: LayerNorm → q, k, v → attention (not causal, one segment per image) → out + residual →
//   LayerNorm → quick-GELU MLP + residual → class rows (LayerNorm with a stride) → projection → L2.
//
// Weights are uploaded in f16 where the adapter has shader-f16 (read natively, f32 accumulation) and
// in f32 otherwise; `format` overrides that (f16 weights also work without shader-f16: packed two
// to a word and widened as read).

export type ClipWeightFormat = "f32" | "f16";

export interface GpuClipOptions {
  /** Images per dispatch chain; lowered to what the adapter's largest binding holds. Default 16. */
  maxBatch?: number;
  /** Default f16 where the adapter has shader-f16, else f32. */
  format?: ClipWeightFormat;
}

interface GpuLayer {
  ln1: GpuWeights;
  q: Linear;
  k: Linear;
  v: Linear;
  out: Linear;
  ln2: GpuWeights;
  fc1: Linear;
  fc2: Linear;
}

/** Activations for `images` images, reused batch after batch. */
interface Scratch {
  images: number;
  pixels: GPUBuffer;
  patchRows: GPUBuffer;
  a: GPUBuffer;
  b: GPUBuffer;
  x: GPUBuffer;
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  attended: GPUBuffer;
  hidden: GPUBuffer;
  pooled: GPUBuffer;
  embeddings: GPUBuffer;
}

export class GpuClipVision {
  readonly maxBatch: number;
  readonly format: ClipWeightFormat;
  private readonly tokens: number;
  private scratch: Scratch | null = null;
  private disposed = false;

  private constructor(
    readonly gpu: Gpu,
    readonly config: ClipVisionModel["config"],
    private readonly weights: {
      patch: Linear;
      /** [maxBatch · tokens, hidden]: class + position 0, then positions, repeated per image (the patch matmul's residual). */
      positions: GPUBuffer;
      /** [maxBatch · tokens] u32 pairs: each row's image [start, end) (attention's segments). */
      segments: GPUBuffer;
      pre: GpuWeights;
      layers: GpuLayer[];
      post: GpuWeights;
      projection: Linear;
    },
    maxBatch: number,
    format: ClipWeightFormat,
  ) {
    this.maxBatch = maxBatch;
    this.format = format;
    this.tokens = 1 + (config.imageSize / config.patchSize) ** 2;
  }

  /** The largest batch whose widest activation fits one binding of this adapter. */
  static batchLimit(gpu: Gpu, config: ClipVisionModel["config"], wanted: number): number {
    const tokens = 1 + (config.imageSize / config.patchSize) ** 2;
    const widest = tokens * Math.max(3 * config.patchSize ** 2, config.intermediateSize, 3 * config.hiddenSize) * 4;
    const limit = Math.min(gpu.limits.maxStorageBufferBindingSize, gpu.limits.maxBufferSize);
    return Math.max(1, Math.min(wanted, Math.floor(limit / widest)));
  }

  static load(gpu: Gpu, model: ClipVisionModel, options: GpuClipOptions = {}): GpuClipVision {
    const c = model.config;
    const { hiddenSize: H, intermediateSize: I, patchSize: P, imageSize: S, projectionDim: E } = c;
    if (S % P !== 0) throw new Error(`image_size ${S} is not a multiple of patch_size ${P}`);
    const headDim = H / c.numHeads;
    if (headDim > 128) throw new Error(`CLIP on WebGPU: head_dim ${headDim} is more than the attention kernel's 128`);
    const format = options.format ?? (gpu.info.f16 ? "f16" : "f32");
    const maxBatch = GpuClipVision.batchLimit(gpu, c, options.maxBatch ?? 16);
    const tokens = 1 + (S / P) ** 2;

    const upload = (values: Float32Array, label: string) => uploadWeights(gpu, values, format, label);
    const linear = (weight: Float32Array, n: number, k: number, label: string, bias?: Float32Array): Linear => {
      const stored = new Float32Array(weight.length + (bias?.length ?? 0));
      stored.set(weight);
      if (bias) stored.set(bias, weight.length);
      return { weights: upload(stored, label), n, k, biasAt: bias ? n * k : null };
    };
    const norm = (a: { weight: Float32Array; bias: Float32Array }, label: string) => {
      const stored = new Float32Array(2 * a.weight.length);
      stored.set(a.weight);
      stored.set(a.bias, a.weight.length);
      return upload(stored, label);
    };

    // The class token's row of the patch matmul is zeros, so its output is exactly this table's row.
    const table = new Float32Array(tokens * H);
    table.set(model.positionEmbedding);
    for (let i = 0; i < H; i++) table[i]! += model.classEmbedding[i]!;
    const positions = new Float32Array(maxBatch * tokens * H);
    const segments = new Uint32Array(maxBatch * tokens * 2);
    for (let b = 0; b < maxBatch; b++) {
      positions.set(table, b * tokens * H);
      for (let t = 0; t < tokens; t++) segments.set([b * tokens, (b + 1) * tokens], (b * tokens + t) * 2);
    }

    const layers = model.layers.map((l, i) => ({
      ln1: norm(l.ln1, `clip.${i}.ln1`),
      q: linear(l.q.weight, H, H, `clip.${i}.q`, l.q.bias),
      k: linear(l.k.weight, H, H, `clip.${i}.k`, l.k.bias),
      v: linear(l.v.weight, H, H, `clip.${i}.v`, l.v.bias),
      out: linear(l.out.weight, H, H, `clip.${i}.out`, l.out.bias),
      ln2: norm(l.ln2, `clip.${i}.ln2`),
      fc1: linear(l.fc1.weight, I, H, `clip.${i}.fc1`, l.fc1.bias),
      fc2: linear(l.fc2.weight, H, I, `clip.${i}.fc2`, l.fc2.bias),
    }));
    return new GpuClipVision(
      gpu,
      c,
      {
        patch: linear(model.patchEmbedding, H, 3 * P * P, "clip.patch"),
        // Activations stay f32: the table is added in f32 as the residual.
        positions: gpu.upload(positions, "clip.positions"),
        segments: gpu.upload(segments, "clip.segments"),
        pre: norm(model.preLayerNorm, "clip.pre"),
        layers,
        post: norm(model.postLayerNorm, "clip.post"),
        projection: linear(model.projection, E, H, "clip.projection"),
      },
      maxBatch,
      format,
    );
  }

  /** L2-normalised embeddings of preprocessed pixels [3, S, S] per image, `maxBatch` at a time. */
  async embed(images: Float32Array[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < images.length; i += this.maxBatch)
      out.push(...(await this.embedBatch(images.slice(i, i + this.maxBatch))));
    return out;
  }

  private buffers(images: number): Scratch {
    if (this.scratch && this.scratch.images >= images) return this.scratch;
    this.freeScratch();
    const { hiddenSize: H, intermediateSize: I, patchSize: P, imageSize: S, projectionDim: E } = this.config;
    const rows = images * this.tokens;
    const f = (n: number, label: string) => this.gpu.storage(n * 4, `clip.${label}`);
    this.scratch = {
      images,
      pixels: f(images * 3 * S * S, "pixels"),
      patchRows: f(rows * 3 * P * P, "patch-rows"),
      a: f(rows * H, "a"),
      b: f(rows * H, "b"),
      x: f(rows * H, "x"),
      q: f(rows * H, "q"),
      k: f(rows * H, "k"),
      v: f(rows * H, "v"),
      attended: f(rows * H, "attended"),
      hidden: f(rows * I, "hidden"),
      pooled: f(images * H, "pooled"),
      embeddings: f(images * E, "embeddings"),
    };
    return this.scratch;
  }

  private async embedBatch(images: Float32Array[]): Promise<Float32Array[]> {
    if (this.disposed) throw new Error("CLIP on WebGPU: used after dispose()");
    const n = images.length;
    if (n === 0) return [];
    const {
      hiddenSize: H,
      patchSize: P,
      imageSize: S,
      projectionDim: E,
      numHeads: heads,
      layerNormEps: eps,
    } = this.config;
    const size = 3 * S * S;
    // Buffers for the largest batch seen so far: a run's batches are mostly full.
    const s = this.buffers(Math.max(n, this.scratch?.images ?? 0));
    const input = new Float32Array(n * size);
    images.forEach((pixels, i) => {
      if (pixels.length !== size) throw new Error(`expected ${size} pixel values, got ${pixels.length}`);
      input.set(pixels, i * size);
    });
    const gpu = this.gpu;
    const w = this.weights;
    const rows = n * this.tokens;
    gpu.write(s.pixels, 0, input);
    const batch = gpu.batch();
    patches(gpu, batch, { pixels: s.pixels, out: s.patchRows, images: n, size: S, patch: P });
    matmul(gpu, batch, { x: s.patchRows, y: s.b, m: rows, linear: w.patch, residual: w.positions });
    layernorm(gpu, batch, { x: s.b, y: s.a, rows, d: H, eps, weights: w.pre });
    for (const l of w.layers) {
      layernorm(gpu, batch, { x: s.a, y: s.x, rows, d: H, eps, weights: l.ln1 });
      matmul(gpu, batch, { x: s.x, y: s.q, m: rows, linear: l.q });
      matmul(gpu, batch, { x: s.x, y: s.k, m: rows, linear: l.k });
      matmul(gpu, batch, { x: s.x, y: s.v, m: rows, linear: l.v });
      attention(gpu, batch, {
        q: s.q,
        qStride: H,
        k: s.k,
        v: s.v,
        segments: w.segments,
        out: s.attended,
        rows,
        heads,
        kvHeads: heads,
        headDim: H / heads,
        causal: false,
      });
      matmul(gpu, batch, { x: s.attended, y: s.b, m: rows, linear: l.out, residual: s.a });
      layernorm(gpu, batch, { x: s.b, y: s.x, rows, d: H, eps, weights: l.ln2 });
      quickGeluMlp(gpu, batch, { x: s.x, y: s.a, residual: s.b, rows, fc1: l.fc1, fc2: l.fc2, hidden: s.hidden });
    }
    // Each image's class token: rows `tokens · H` apart.
    layernorm(gpu, batch, { x: s.a, y: s.pooled, rows: n, d: H, eps, weights: w.post, xStride: this.tokens * H });
    matmul(gpu, batch, { x: s.pooled, y: s.embeddings, m: n, linear: w.projection });
    l2Normalize(gpu, batch, { x: s.embeddings, rows: n, d: E });
    batch.submit();
    const all = await gpu.readF32(s.embeddings, n * E);
    return Array.from({ length: n }, (_, i) => all.slice(i * E, (i + 1) * E));
  }

  private freeScratch(): void {
    if (!this.scratch) return;
    for (const [key, value] of Object.entries(this.scratch)) if (key !== "images") (value as GPUBuffer).destroy();
    this.scratch = null;
  }

  /** Frees the weights and activations (the device stays: it may be shared). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.freeScratch();
    const w = this.weights;
    const all: GpuWeights[] = [w.patch.weights, w.pre, w.post, w.projection.weights];
    for (const l of w.layers)
      all.push(l.ln1, l.q.weights, l.k.weights, l.v.weights, l.out.weights, l.ln2, l.fc1.weights, l.fc2.weights);
    for (const g of all) g.buffer.destroy();
    w.positions.destroy();
    w.segments.destroy();
  }
}
