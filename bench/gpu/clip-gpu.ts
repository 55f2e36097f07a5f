// CLIP ViT-B/32's image tower on WebGPU (lib/gpu/clip/vision.ts) over N screenshots, for the GPU
// bench (bench/gpu/run.py), which times PyTorch on the same GPU, the same weights and the same float
// pixels afterwards (bench/gpu/clip_torch_cuda.py). The screenshots arrive as CLIP's resized and
// cropped uint8 images (prepare.ts renders ColBench targets and crops them here, where Chromium is),
// so the only preprocessing left is the rescale and normalisation both sides share.
//
//   node clip-gpu.mjs --crops crops.u8.gz --weights DIR --out DIR [--images 1000] [--batch 64] [--formats f32,f16] [--runs 3] [--model b32|tiny]
//
// `--model tiny` (a 2-layer, 64-wide tower on the same input) and `--crops synthetic:N` (N seeded
// random images) are the smoke test's: they check the machinery in seconds on a software adapter.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import "../../lib/gpu/node/register-wgsl.mjs";
import { CLIP_SHAPES, writeRandomClip, type ClipShape } from "../random-clip";

const { openNodeGpu } = await import("../../lib/gpu/node/open");
const { GpuClipVision } = await import("../../lib/gpu/clip/vision");
const { loadClipVision } = await import("../../lib/scoring/frontend/embedders/clip-vision");
const { clipNormalize } = await import("../../lib/scoring/frontend/embedders/clip-preprocess");

const argv = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1]!;
  if (fallback === undefined) throw new Error(`--${name} is required`);
  return fallback;
};
const IMAGES = Number(option("images", "1000"));
const BATCH = Number(option("batch", "64"));
const RUNS = Number(option("runs", "3"));
const FORMATS = option("formats", "f32,f16").split(",") as Array<"f32" | "f16">;
const OUT = option("out");
const WEIGHTS = option("weights");
const MODEL = option("model", "b32") as ClipShape;
if (!(MODEL in CLIP_SHAPES)) throw new Error(`--model: ${MODEL} is not one of ${Object.keys(CLIP_SHAPES).join(", ")}`);
const S = 224;

fs.mkdirSync(OUT, { recursive: true });
writeRandomClip(WEIGHTS, MODEL);
const model = loadClipVision(WEIGHTS);

// The distinct screenshots, repeated up to IMAGES (the GPU's time does not depend on what a pixel shows).
const size = S * S * 3;
const cropsOption = option("crops");
const synthetic = /^synthetic:(\d+)$/.exec(cropsOption);
const crops = synthetic ? syntheticCrops(Number(synthetic[1])) : zlib.gunzipSync(fs.readFileSync(cropsOption));
if (crops.length % size !== 0 || crops.length === 0)
  throw new Error(`--crops: ${crops.length} bytes is not a whole number of ${S}x${S} RGB images`);
const distinct = Array.from({ length: crops.length / size }, (_, i) =>
  clipNormalize({ width: S, height: S, data: crops.subarray(i * size, (i + 1) * size) }),
);
const pixels = Array.from({ length: IMAGES }, (_, i) => distinct[i % distinct.length]!);
console.log(`${IMAGES} images (${distinct.length} distinct screenshots, repeated), batch ${BATCH}`);

// PyTorch reads the very same floats.
const pixelFile = path.join(OUT, "clip-pixels.f32");
const all = new Float32Array(IMAGES * 3 * S * S);
pixels.forEach((p, i) => all.set(p, i * 3 * S * S));
fs.writeFileSync(pixelFile, all);

const gpu = await openNodeGpu();
const info = gpu.info;
const adapter = `${info.graphicsApi}: ${info.description || info.architecture || info.vendor}${info.software ? " (software)" : ""}`;
console.log(`adapter ${adapter}; shader-f16 ${info.f16 ? "yes" : "no"}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary: Record<string, unknown> = { adapter, model: MODEL, images: IMAGES, distinct: distinct.length };

for (const format of FORMATS) {
  const loaded = performance.now();
  const vision = GpuClipVision.load(gpu, model, { maxBatch: BATCH, format });
  // Pipelines compile on first use: one batch before the clock starts.
  await vision.embed(pixels.slice(0, vision.maxBatch));
  const ready = performance.now() - loaded;
  const times: number[] = [];
  let embeddings: Float32Array[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    embeddings = await vision.embed(pixels);
    times.push(performance.now() - t);
  }
  vision.dispose();
  const ms = median(times);
  console.log(
    `webgpu ${format} weights, batch ${vision.maxBatch}: ${IMAGES} images in ${ms.toFixed(1)} ms (median of ${RUNS}), ${(ms / IMAGES).toFixed(3)} ms/image; loaded and warmed in ${(ready / 1000).toFixed(1)} s`,
  );
  // The first distinct images' embeddings, for the PyTorch side to compare with.
  const k = Math.min(16, distinct.length, IMAGES);
  const firsts = new Float32Array(k * embeddings[0]!.length);
  for (let i = 0; i < k; i++) firsts.set(embeddings[i]!, i * embeddings[0]!.length);
  fs.writeFileSync(path.join(OUT, `webgpu-embeddings-${format}.f32`), firsts);
  summary[format] = { ms, batch: vision.maxBatch, runs: times };
}
gpu.destroy();
console.log(
  JSON.stringify({ clip: { ...summary, pixels: pixelFile, compared: Math.min(16, distinct.length, IMAGES) } }),
);
process.exit(0);

/** N seeded random 224x224 RGB images (what a pixel shows does not matter to the machinery). */
function syntheticCrops(n: number): Uint8Array {
  let state = 0x9e3779b9;
  const out = new Uint8Array(n * size);
  for (let i = 0; i < out.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}
