// CLIP ViT-B/32's image tower on this machine, four ways, same weights, same inputs: the
// TypeScript reference (the `reference` device), onnxruntime-node on the graph the studio builds
// (the `cpu` device), lib/gpu's WGSL kernels on whatever WebGPU adapter Dawn finds (the `webgpu`
// device: a GPU through Vulkan, else Mesa's software llvmpipe, which the output names), and PyTorch
// in the same run where Python has torch and transformers. Inputs
// are real screenshots: the first N ColBench frontend targets (../shared/colbench/frontend_test.jsonl)
// rendered by the project's pool (cached in bench/out/renders) and preprocessed once by the studio's
// CLIP preprocessing, so every engine embeds the very same float32 pixels. The engines take turns
// chunk by chunk (alternating which goes first), so a machine shared with other work loads them alike.
//
//   npx tsx bench/clip.ts [--clip REF] [--images 1000] [--chunk 100] [--batch 8] [--batch1 8] [--gpu-batch 16] [--no-webgpu] [--e2e-only]
//
// First, end to end where PyTorch is at hand: PNG bytes → embedding through the studio's `cpu`
// embedder against transformers (Pillow decode + CLIPImageProcessor + the model), printing
// `end-to-end ratio: R` (studio / transformers, time per image) and the embeddings' largest
// difference; --e2e-only stops there.
//
// --clip: the weights, a folder or hub id (default $COLBENCH_CLIP_FULL, the full-size random ViT-B/32
// fixtures/make_clip_fixture.py --full writes, else openai/clip-vit-base-patch32 through the cache).
// --random-b32 DIR: instead, a ViT-B/32-shaped vision tower with seeded random F16 weights, written to
// DIR once (config.json + model.safetensors, 176 MB) where neither PyTorch nor the hub is at hand.
// PyTorch: COLBENCH_TORCH_PYTHONPATH names a folder holding torch and transformers (e.g. made with
// `pip install --index-url file:///opt/pypi/simple --target DIR torch transformers safetensors`);
// COLBENCH_PYTHON the interpreter (default python3). Without them the bench says PyTorch is absent.
// The TypeScript reference takes seconds per image, so it embeds one image per chunk (a sample).
// Per chunk ONNX Runtime also embeds --batch1 images one at a time (batch 1).

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { resolveModel } from "../lib/hub";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import "../lib/gpu/node/register-wgsl.mjs";
import type { GpuClipVision } from "../lib/gpu/clip/vision";
import { OnnxClipEmbedder } from "../lib/scoring/frontend/embedders/clip-onnx";
import { clipPreprocess } from "../lib/scoring/frontend/embedders/clip-preprocess";
import { embedImage, loadClipVision } from "../lib/scoring/frontend/embedders/clip-vision";
import { CLIP_FILES, CLIP_HUB_ID } from "../lib/scoring/frontend/embedders/choose";
import { decodePng } from "../lib/scoring/frontend/png";
import { RenderPool } from "../lib/scoring/frontend/render";
import { writeRandomB32 } from "./random-clip";

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : argv[i + 1]!;
  };
  return {
    clip: opt("--clip", process.env.COLBENCH_CLIP_FULL ?? CLIP_HUB_ID),
    images: Number(opt("--images", "1000")),
    chunk: Number(opt("--chunk", "100")),
    batch: Number(opt("--batch", "8")),
    batch1: Number(opt("--batch1", "8")),
    gpuBatch: Number(opt("--gpu-batch", "16")),
    webgpu: !argv.includes("--no-webgpu"),
    randomB32: opt("--random-b32", ""),
    endToEndOnly: argv.includes("--e2e-only"),
  };
}

const perImage = (t: { seconds: number; images: number }) => (1000 * t.seconds) / t.images;
const line = (label: string, t: { seconds: number; images: number }, note: string) =>
  `${label.padEnd(24)} ${(t.images / t.seconds).toFixed(2).padStart(8)} images/s  ${perImage(t).toFixed(1).padStart(8)} ms/image  (${note})`;
const maxAbs = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

/** The PyTorch worker (bench/clip_torch.py), or why there is none. */
async function startTorch(
  folder: string,
  pixels: Float32Array[],
  size: number,
  batch: number,
  out: string,
  pngs: Buffer[],
) {
  const pythonPath = process.env.COLBENCH_TORCH_PYTHONPATH;
  const python = process.env.COLBENCH_PYTHON ?? "python3";
  const env = { ...process.env, ...(pythonPath ? { PYTHONPATH: pythonPath } : {}) };
  if (spawnSync(python, ["-c", "import torch, transformers"], { env }).status !== 0) {
    return {
      absent: `PyTorch: absent (${python} cannot import torch and transformers${pythonPath ? ` from ${pythonPath}` : ""}; set COLBENCH_TORCH_PYTHONPATH)`,
    } as const;
  }
  const pixelFile = path.join(out, `clip-pixels-${pixels.length}.f32`);
  const all = new Float32Array(pixels.length * 3 * size * size);
  pixels.forEach((p, i) => all.set(p, i * 3 * size * size));
  writeFileSync(pixelFile, Buffer.from(all.buffer));
  // The screenshots' own bytes, for transformers' end to end (Pillow decodes them there).
  const pngDir = path.join(out, "clip-e2e-pngs");
  mkdirSync(pngDir, { recursive: true });
  pngs.forEach((png, i) => writeFileSync(path.join(pngDir, `${i}.png`), png));
  const child = spawn(
    python,
    [
      path.join(projectRoot, "bench", "clip_torch.py"),
      folder,
      pixelFile,
      String(pixels.length),
      String(size),
      String(batch),
      pngDir,
    ],
    { env, stdio: ["pipe", "pipe", "inherit"] },
  );
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const reply = await replies.next();
    if (reply.done) throw new Error("the PyTorch worker stopped");
    return JSON.parse(reply.value) as Record<string, number | string>;
  };
  const hello = (await next()) as { threads: number; torch: string };
  return {
    hello,
    async run(start: number, count: number): Promise<number> {
      child.stdin.write(`run ${start} ${count}\n`);
      return (await next()).seconds as number;
    },
    async embeddings(k: number, endToEnd = false): Promise<Float32Array> {
      const file = path.join(out, "clip-torch-embeddings.f32");
      child.stdin.write(`${endToEnd ? "e2e-embed" : "embed"} ${k} ${file}\n`);
      await next();
      return new Float32Array(readFileSync(file).buffer.slice(0));
    },
    /** Pillow decode + CLIPImageProcessor + the model on PNGs [start, start + count): seconds. */
    async endToEnd(start: number, count: number): Promise<number> {
      child.stdin.write(`e2e ${start} ${count}\n`);
      return (await next()).seconds as number;
    },
    close: () => child.stdin.end(),
  };
}

// The GPU modules import WGSL as text: loaded after the hook above is registered.
const { GpuClipVision: GpuClip } = await import("../lib/gpu/clip/vision");
const { openNodeGpu } = await import("../lib/gpu/node/open");

/**
 * PNG bytes → embedding, time per image: the studio's `cpu` embedder (libvips decode, Pillow's
 * arithmetic in TypeScript, ONNX Runtime, overlapped) against transformers (Pillow decode +
 * CLIPImageProcessor + the model), same images, same weights, taking turns chunk by chunk.
 */
async function endToEnd(
  pngs: Buffer[],
  ort: OnnxClipEmbedder,
  torch: Awaited<ReturnType<typeof startTorch>>,
  opts: ReturnType<typeof args>,
) {
  if ("absent" in torch) {
    console.log(`end-to-end ratio: unmeasured (${torch.absent})`);
    return;
  }
  await Promise.all(pngs.slice(0, opts.batch).map((p) => ort.embed(p)));
  await torch.endToEnd(0, Math.min(opts.batch, pngs.length));
  const studio = { seconds: 0, images: 0 };
  const theirs = { seconds: 0, images: 0 };
  const ours: Float32Array[] = [];
  for (let start = 0, round = 0; start < pngs.length; start += opts.chunk, round++) {
    const chunk = pngs.slice(start, start + opts.chunk);
    const runStudio = async () => {
      const t = performance.now();
      ours.push(...(await Promise.all(chunk.map((p) => ort.embed(p)))));
      studio.seconds += (performance.now() - t) / 1000;
      studio.images += chunk.length;
    };
    const runTorch = async () => {
      theirs.seconds += await torch.endToEnd(start, chunk.length);
      theirs.images += chunk.length;
    };
    if (round % 2 === 0) await runStudio().then(runTorch);
    else await runTorch().then(runStudio);
  }
  const k = Math.min(16, pngs.length);
  const reference = await torch.embeddings(k, true);
  const dim = reference.length / k;
  const error = Math.max(
    ...Array.from({ length: k }, (_, i) => maxAbs(reference.subarray(i * dim, (i + 1) * dim), ours[i]!)),
  );
  console.log(
    line(
      `studio cpu b=${opts.batch} e2e`,
      studio,
      `PNG bytes → embedding: libvips decode, TypeScript resize, ONNX Runtime; ${studio.images} images`,
    ),
  );
  console.log(
    line(
      `transformers b=${opts.batch} e2e`,
      theirs,
      `Pillow decode + CLIPImageProcessor + model; ${theirs.images} images`,
    ),
  );
  console.log(
    `end-to-end parity: max |studio − transformers| ${error.toExponential(1)} over ${k} images (goal ≤ 1e-5)`,
  );
  console.log(
    `end-to-end ratio: ${(perImage(studio) / perImage(theirs)).toFixed(3)} (studio / transformers, time per image; goal ≤ 1.0)`,
  );
}

async function main() {
  const opts = args();
  const out = path.join(projectRoot, "bench", "out");
  mkdirSync(out, { recursive: true });
  if (opts.randomB32) writeRandomB32(opts.randomB32);
  const { folder } = await resolveModel(opts.randomB32 || opts.clip, { files: CLIP_FILES });
  console.log(`weights: ${opts.randomB32 ? "random ViT-B/32 (--random-b32)" : opts.clip} (${folder})`);
  console.log(`machine: ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores`);

  // 1. Real screenshots, rendered once.
  const targets = readFileSync(path.join(sharedColbenchDir(), "frontend_test.jsonl"), "utf8")
    .trim()
    .split("\n")
    .slice(0, opts.images)
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const pool = await RenderPool.start({ cache: path.join(out, "renders") });
  let started = performance.now();
  const pngs = await Promise.all(targets.map((html) => pool.render(html).then((r) => r.png)));
  await pool.close();
  console.log(`rendered or read ${pngs.length} screenshots in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 2. CLIP's preprocessing (decode, Pillow's bicubic, crop, normalise), once for every engine.
  const model = loadClipVision(folder);
  const S = model.config.imageSize;
  if (model.config.hiddenSize !== 768 || model.config.numLayers !== 12)
    console.log("note: these weights are not ViT-B/32's shape; the figures are not B/32's");
  started = performance.now();
  const pixels = pngs.map((png) => clipPreprocess(decodePng(png), S));
  const preprocess = { seconds: (performance.now() - started) / 1000, images: pixels.length };

  // 3. The engines, ready and warm.
  started = performance.now();
  const ort = await OnnxClipEmbedder.load(folder, { batchSize: opts.batch });
  const ortSingle = await OnnxClipEmbedder.load(folder, { batchSize: 1 });
  console.log(
    `onnxruntime-node sessions ready in ${((performance.now() - started) / 1000).toFixed(1)} s (graph ${ort.graphFile})`,
  );
  await Promise.all(pixels.slice(0, opts.batch).map((p) => ort.embedPixels(p)));
  await ortSingle.embedPixels(pixels[0]!);
  const torch = await startTorch(folder, pixels, S, opts.batch, out, pngs);
  await endToEnd(pngs, ort, torch, opts);
  if (opts.endToEndOnly) {
    if (!("absent" in torch)) torch.close();
    await ort.close();
    await ortSingle.close();
    return;
  }
  let webgpu: GpuClipVision | null = null;
  if (opts.webgpu) {
    started = performance.now();
    const gpu = await openNodeGpu();
    webgpu = GpuClip.load(gpu, model, { maxBatch: opts.gpuBatch });
    // Pipelines compile on first use: one batch before the clock starts.
    await webgpu.embed(pixels.slice(0, webgpu.maxBatch));
    const a = gpu.info;
    console.log(
      `WebGPU: ${a.graphicsApi}, ${a.description || a.architecture}${a.software ? " (software adapter: no GPU)" : ""}, shader-f16 ${a.f16 ? "yes" : "no"}, ` +
        `${webgpu.format} weights, batch ${webgpu.maxBatch}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  // 4. Turns, chunk by chunk.
  const totals = {
    ort: { seconds: 0, images: 0 },
    ort1: { seconds: 0, images: 0 },
    torch: { seconds: 0, images: 0 },
    reference: { seconds: 0, images: 0 },
    webgpu: { seconds: 0, images: 0 },
  };
  const ortEmbeddings: Float32Array[] = [];
  let webgpuError = 0;
  const refError: number[] = [];
  for (let start = 0, round = 0; start < pixels.length; start += opts.chunk, round++) {
    const chunk = pixels.slice(start, start + opts.chunk);
    const runOrt = async () => {
      const t = performance.now();
      ortEmbeddings.push(...(await Promise.all(chunk.map((p) => ort.embedPixels(p)))));
      totals.ort.seconds += (performance.now() - t) / 1000;
      totals.ort.images += chunk.length;
    };
    const runTorch = async () => {
      if ("absent" in torch) return;
      totals.torch.seconds += await torch.run(start, chunk.length);
      totals.torch.images += chunk.length;
    };
    const runWebgpu = async () => {
      if (!webgpu) return;
      const t = performance.now();
      const got = await webgpu.embed(chunk);
      totals.webgpu.seconds += (performance.now() - t) / 1000;
      totals.webgpu.images += chunk.length;
      return got;
    };
    // Which goes first alternates, so a machine shared with other work loads them alike.
    let gpuEmbeddings: Float32Array[] | undefined;
    if (round % 2 === 0)
      await runOrt()
        .then(runTorch)
        .then(async () => (gpuEmbeddings = await runWebgpu()));
    else {
      gpuEmbeddings = await runWebgpu();
      await runTorch().then(runOrt);
    }
    gpuEmbeddings?.forEach((e, i) => (webgpuError = Math.max(webgpuError, maxAbs(e, ortEmbeddings[start + i]!))));
    let t = performance.now();
    for (const p of chunk.slice(0, opts.batch1)) await ortSingle.embedPixels(p);
    totals.ort1.seconds += (performance.now() - t) / 1000;
    totals.ort1.images += Math.min(opts.batch1, chunk.length);
    t = performance.now();
    const reference = embedImage(model, chunk[0]!);
    totals.reference.seconds += (performance.now() - t) / 1000;
    totals.reference.images += 1;
    refError.push(maxAbs(reference, ortEmbeddings[start]!));
    process.stderr.write(`  ${Math.min(start + opts.chunk, pixels.length)}/${pixels.length}\r`);
  }
  await ort.close();
  await ortSingle.close();
  webgpu?.dispose();

  console.log("");
  console.log(
    line("preprocessing (TS)", preprocess, `one thread, ${preprocess.images} images, shared by every engine`),
  );
  console.log(
    line(
      "TypeScript reference",
      totals.reference,
      `one image per chunk, ${totals.reference.images} images; max |Δ| to ORT ${Math.max(...refError).toExponential(1)}`,
    ),
  );
  console.log(
    line("onnxruntime-node b=1", totals.ort1, `${totals.ort1.images} images, ${availableParallelism()} threads`),
  );
  console.log(
    line(
      `onnxruntime-node b=${opts.batch}`,
      totals.ort,
      `${totals.ort.images} images, ${availableParallelism()} threads`,
    ),
  );
  if (webgpu)
    console.log(
      line(
        `WebGPU b=${webgpu.maxBatch}`,
        totals.webgpu,
        `${totals.webgpu.images} images, ${webgpu.gpu.info.software ? "software adapter" : webgpu.gpu.info.description}; max |Δ| to ORT ${webgpuError.toExponential(1)}`,
      ),
    );
  if ("absent" in torch) console.log(torch.absent);
  else {
    const theirs = await torch.embeddings(16);
    const dim = theirs.length / 16;
    const error = Math.max(
      ...Array.from({ length: 16 }, (_, i) => maxAbs(theirs.subarray(i * dim, (i + 1) * dim), ortEmbeddings[i]!)),
    );
    torch.close();
    console.log(
      line(
        `PyTorch CPU b=${opts.batch}`,
        totals.torch,
        `${totals.torch.images} images, ${torch.hello.threads} threads, torch ${torch.hello.torch}; max |Δ| to ORT ${error.toExponential(1)}`,
      ),
    );
  }
  console.log("");
  const ortPer = perImage(totals.ort);
  console.log(
    `ORT b=${opts.batch} is ${(perImage(totals.reference) / ortPer).toFixed(1)}x the TypeScript reference (time per image ratio ${(ortPer / perImage(totals.reference)).toFixed(4)}; goal >= 30x)`,
  );
  if (webgpu) {
    const gpuPer = perImage(totals.webgpu);
    console.log(
      `WebGPU b=${webgpu.maxBatch} / ORT b=${opts.batch} (today's CPU embedder), images/s: ${(ortPer / gpuPer).toFixed(3)}` +
        `${webgpu.gpu.info.software ? " (a software adapter: says nothing about a GPU; goal on a GPU >= 10)" : " (goal >= 10)"}; ` +
        `WebGPU / TypeScript reference, images/s: ${(perImage(totals.reference) / gpuPer).toFixed(2)}`,
    );
    if (!("absent" in torch))
      console.log(
        `WebGPU / PyTorch CPU, time per image: ${(gpuPer / perImage(totals.torch)).toFixed(3)} (PyTorch on this machine's CPU, not a GPU)`,
      );
  }
  if (!("absent" in torch))
    console.log(
      `ORT / PyTorch CPU, time per image at batch ${opts.batch}: ${(ortPer / perImage(totals.torch)).toFixed(3)} (goal <= 1, aim 0.6)`,
    );
}

await main();
