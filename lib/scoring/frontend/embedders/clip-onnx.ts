import { availableParallelism } from "node:os";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { decodePngPixels } from "../png-pixels";
import { clipEmbedderId } from "./clip";
import { buildClipVisionOnnx, CLIP_ONNX_OPSET } from "./clip-onnx-graph";
import { clipNormalize, clipResizeCropPixels } from "./clip-preprocess";
import { loadClipVision, parseClipConfig, type ClipVisionConfig } from "./clip-vision";
import { l2Normalize } from "./clip-ops";
import { cachedGraph } from "./onnx-cache";
import type { ImageEmbedder } from "./types";

// CLIP's vision tower on the CPU through ONNX Runtime (the `cpu` device): the graph built from the
// checkpoint (clip-onnx-graph.ts, cached by checkpoint hash) or one exported elsewhere. Images are
// preprocessed exactly as for the reference (Pillow's arithmetic; decoded by libvips off the event
// loop, resized only where the crop needs) and run in batches: while one batch is in ONNX Runtime's
// threads, the next images are decoded and resized and queue up for the next batch.

/** Bumped whenever the graph builder changes what it builds: cached graphs are keyed on it. */
export const GRAPH_VERSION = `clip-vision-graph-2/opset-${CLIP_ONNX_OPSET}`;

export interface OnnxClipOptions {
  /** A graph exported elsewhere (pixel_values [N, 3, S, S] in, image embeddings out) instead of building one. */
  onnxFile?: string;
  /** Images per run (default 8). */
  batchSize?: number;
  /** ONNX Runtime's intra-op threads (default: every core). */
  threads?: number;
  /** Told once when a graph is built rather than found in the cache. */
  onBuild?: (file: string) => void;
}

interface Pending {
  pixels: Float32Array;
  resolve: (embedding: Float32Array) => void;
  reject: (error: Error) => void;
}

export class OnnxClipEmbedder implements ImageEmbedder {
  readonly device = "cpu";
  private queue: Pending[] = [];
  private running = false;
  /** Images being decoded and resized: the next batch waits for them rather than leave without them. */
  private preparing = 0;
  private wake: (() => void) | null = null;

  private constructor(
    readonly id: string,
    readonly config: ClipVisionConfig,
    private readonly session: ort.InferenceSession,
    private batchSize: number,
    readonly graphFile: string,
    /** Our graph ends in an L2 norm; one exported elsewhere may not. */
    private readonly normalised: boolean,
  ) {}

  static async load(folder: string, options: OnnxClipOptions = {}): Promise<OnnxClipEmbedder> {
    const config = parseClipConfig(
      JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as Record<string, unknown>,
    );
    let file = options.onnxFile;
    if (!file) {
      const graph = await cachedGraph(folder, GRAPH_VERSION, () => buildClipVisionOnnx(loadClipVision(folder)));
      if (graph.built) options.onBuild?.(graph.file);
      file = graph.file;
    }
    const session = await ort.InferenceSession.create(file, {
      intraOpNumThreads: options.threads ?? availableParallelism(),
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    return new OnnxClipEmbedder(
      clipEmbedderId(config),
      config,
      session,
      options.batchSize ?? 8,
      file,
      !options.onnxFile,
    );
  }

  async embed(png: Uint8Array): Promise<Float32Array> {
    this.preparing++;
    let pixels: Float32Array;
    try {
      pixels = clipNormalize(clipResizeCropPixels(await decodePngPixels(png), this.config.imageSize));
    } finally {
      this.preparing--;
      this.nudge();
    }
    return this.embedPixels(pixels);
  }

  private nudge(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The embedding of preprocessed pixels [3, S, S] (benchmarks and parity tests feed these). */
  embedPixels(pixels: Float32Array): Promise<Float32Array> {
    return new Promise((resolve, reject) => {
      this.queue.push({ pixels, resolve, reject });
      this.nudge();
      // Calls made in the same turn join one batch.
      if (!this.running) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        if (this.queue.length < this.batchSize && this.preparing > 0) {
          // More images are on their way: a full batch costs ONNX Runtime less per image.
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        const batch = this.queue.splice(0, this.batchSize);
        try {
          const embeddings = await this.run(batch.map((p) => p.pixels));
          batch.forEach((p, i) => p.resolve(embeddings[i]!));
        } catch (error) {
          batch.forEach((p) => p.reject(error as Error));
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async run(images: Float32Array[]): Promise<Float32Array[]> {
    const S = this.config.imageSize;
    const size = 3 * S * S;
    const input = new Float32Array(images.length * size);
    images.forEach((pixels, i) => {
      if (pixels.length !== size) throw new Error(`expected ${size} pixel values, got ${pixels.length}`);
      input.set(pixels, i * size);
    });
    const feeds = { [this.session.inputNames[0]!]: new ort.Tensor("float32", input, [images.length, 3, S, S]) };
    let results: ort.InferenceSession.OnnxValueMapType;
    try {
      results = await this.session.run(feeds);
    } catch (error) {
      // A graph exported with a fixed batch of one: run the images one by one from now on.
      if (images.length > 1 && this.batchSize > 1) {
        this.batchSize = 1;
        const one: Float32Array[] = [];
        for (const pixels of images) one.push(...(await this.run([pixels])));
        return one;
      }
      throw error;
    }
    const name = this.session.outputNames.includes("image_embeds") ? "image_embeds" : this.session.outputNames[0]!;
    const output = results[name]!;
    const data = output.data as Float32Array;
    const dim = data.length / images.length;
    return images.map((_, i) => {
      const row = data.slice(i * dim, (i + 1) * dim);
      return this.normalised ? row : l2Normalize(row);
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
