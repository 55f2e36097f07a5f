import { GpuClipVision, type GpuClipOptions } from "../../../gpu/clip/vision";
import type { Gpu } from "../../../gpu/gpu";
import { decodePng } from "../png";
import { clipEmbedderId } from "../../../gpu/clip/model";
import { clipPreprocess } from "./clip-preprocess";
import type { ClipVisionModel } from "../../../gpu/clip/model";
import type { ImageEmbedder } from "./types";

// CLIP's vision tower on WebGPU (the `webgpu` device): lib/gpu/clip/vision.ts's kernels, fed as the
// cpu device is fed. Images are preprocessed here exactly as for the other devices (clipPreprocess)
// and queued; while one batch is on the GPU, images that arrive meanwhile are decoded and resized on
// this thread and join the next batch, which is as large as the adapter's bindings allow.

interface Pending {
  pixels: Float32Array;
  resolve: (embedding: Float32Array) => void;
  reject: (error: Error) => void;
}

export class WebGpuClipEmbedder implements ImageEmbedder {
  readonly id: string;
  readonly device = "webgpu";
  private queue: Pending[] = [];
  private running = false;

  /** `ownsDevice`: close() destroys the device too (it was opened for this embedder alone). */
  constructor(
    readonly vision: GpuClipVision,
    private readonly ownsDevice = false,
  ) {
    this.id = clipEmbedderId(vision.config);
  }

  static fromModel(
    gpu: Gpu,
    model: ClipVisionModel,
    options: GpuClipOptions = {},
    ownsDevice = false,
  ): WebGpuClipEmbedder {
    return new WebGpuClipEmbedder(GpuClipVision.load(gpu, model, options), ownsDevice);
  }

  get config() {
    return this.vision.config;
  }

  embed(png: Uint8Array): Promise<Float32Array> {
    return this.embedPixels(clipPreprocess(decodePng(png), this.vision.config.imageSize));
  }

  /** The embedding of preprocessed pixels [3, S, S] (benchmarks and parity tests feed these). */
  embedPixels(pixels: Float32Array): Promise<Float32Array> {
    return new Promise((resolve, reject) => {
      this.queue.push({ pixels, resolve, reject });
      // Calls made in the same turn join one batch.
      if (!this.running) setTimeout(() => void this.drain(), 0);
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.vision.maxBatch);
        try {
          const embeddings = await this.vision.embed(batch.map((p) => p.pixels));
          batch.forEach((p, i) => p.resolve(embeddings[i]!));
        } catch (error) {
          batch.forEach((p) => p.reject(error as Error));
        }
      }
    } finally {
      this.running = false;
    }
  }

  async close(): Promise<void> {
    this.vision.dispose();
    if (this.ownsDevice) this.vision.gpu.destroy();
  }
}
