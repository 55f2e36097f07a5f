// CLIP ViT-B/32's image tower on this machine's CPU, three ways, same weights, same inputs: the
// TypeScript reference (the `reference` device), onnxruntime-node on the graph the studio builds
// (the `cpu` device), and PyTorch in the same run where Python has torch and transformers. Inputs
// are real screenshots: the first N ColBench frontend targets (../shared/colbench/frontend_test.jsonl)
// rendered by the project's pool (cached in bench/out/renders) and preprocessed once by the studio's
// CLIP preprocessing, so every engine embeds the very same float32 pixels.
//
//   npx tsx bench/clip.ts [--clip REF] [--images 1000] [--batch 8] [--reference 12] [--batch1 64]
//
// --clip: the weights, a folder or hub id (default $COLBENCH_CLIP_FULL, the full-size random ViT-B/32
// fixtures/make_clip_fixture.py --full writes, else openai/clip-vit-base-patch32 through the cache).
// PyTorch: COLBENCH_TORCH_PYTHONPATH names a folder holding torch and transformers (e.g. made with
// `pip install --index-url file:///opt/pypi/simple --target DIR torch transformers safetensors`);
// COLBENCH_PYTHON the interpreter (default python3). Without them the bench says PyTorch is absent.
// The TypeScript reference takes seconds per image, so it embeds the first --reference images only.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import path from "node:path";
import { resolveModel } from "../lib/hub";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { OnnxClipEmbedder } from "../lib/scoring/frontend/embedders/clip-onnx";
import { clipPreprocess } from "../lib/scoring/frontend/embedders/clip-preprocess";
import { embedImage, loadClipVision } from "../lib/scoring/frontend/embedders/clip-vision";
import { CLIP_FILES, CLIP_HUB_ID } from "../lib/scoring/frontend/embedders/choose";
import { decodePng } from "../lib/scoring/frontend/png";
import { RenderPool } from "../lib/scoring/frontend/render";

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : argv[i + 1]!;
  };
  return {
    clip: opt("--clip", process.env.COLBENCH_CLIP_FULL ?? CLIP_HUB_ID),
    images: Number(opt("--images", "1000")),
    batch: Number(opt("--batch", "8")),
    reference: Number(opt("--reference", "12")),
    batch1: Number(opt("--batch1", "64")),
  };
}

const ms = (seconds: number, n: number) => `${((1000 * seconds) / n).toFixed(1)} ms/image`;
const rate = (seconds: number, n: number) => `${(n / seconds).toFixed(2)} images/s`;
const maxAbs = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

async function main() {
  const opts = args();
  const out = path.join(projectRoot, "bench", "out");
  mkdirSync(out, { recursive: true });
  const { folder } = await resolveModel(opts.clip, { files: CLIP_FILES });
  const config = JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as { vision_config?: Record<string, number> } & Record<string, number>;
  console.log(`weights: ${opts.clip} (${folder})`);
  console.log(`machine: ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores`);

  // 1. Real screenshots, rendered once.
  const targets = readFileSync(path.join(sharedColbenchDir(), "frontend_test.jsonl"), "utf8").trim().split("\n").slice(0, opts.images).map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const pool = await RenderPool.start({ cache: path.join(out, "renders") });
  let started = performance.now();
  const pngs = await Promise.all(targets.map((html) => pool.render(html).then((r) => r.png)));
  await pool.close();
  console.log(`rendered or read ${pngs.length} screenshots in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 2. CLIP's preprocessing (decode, Pillow's bicubic, crop, normalise), once for every engine.
  const model = loadClipVision(folder);
  const S = model.config.imageSize;
  if (model.config.hiddenSize !== 768 || model.config.numLayers !== 12) console.log("note: these weights are not ViT-B/32's shape; the figures are not B/32's");
  started = performance.now();
  const pixels = pngs.map((png) => clipPreprocess(decodePng(png), S));
  const preprocessSeconds = (performance.now() - started) / 1000;
  console.log(`preprocessing (TypeScript, one thread): ${ms(preprocessSeconds, pixels.length)}`);

  // 3. onnxruntime-node, batches of --batch, every core.
  started = performance.now();
  const ort = await OnnxClipEmbedder.load(folder, { batchSize: opts.batch });
  console.log(`onnxruntime-node session ready in ${((performance.now() - started) / 1000).toFixed(1)} s (graph ${ort.graphFile})`);
  await Promise.all(pixels.slice(0, opts.batch).map((p) => ort.embedPixels(p))); // warm-up
  started = performance.now();
  const ortEmbeddings = await Promise.all(pixels.map((p) => ort.embedPixels(p)));
  const ortSeconds = (performance.now() - started) / 1000;
  await ort.close();
  const single = await OnnxClipEmbedder.load(folder, { batchSize: 1 });
  await single.embedPixels(pixels[0]!);
  started = performance.now();
  for (const p of pixels.slice(0, opts.batch1)) await single.embedPixels(p);
  const ortSingleSeconds = (performance.now() - started) / 1000;
  await single.close();

  // 4. The TypeScript reference, on the first few.
  const refCount = Math.min(opts.reference, pixels.length);
  started = performance.now();
  const refEmbeddings = pixels.slice(0, refCount).map((p) => embedImage(model, p));
  const refSeconds = (performance.now() - started) / 1000;
  const refError = Math.max(...refEmbeddings.map((e, i) => maxAbs(e, ortEmbeddings[i]!)));

  // 5. PyTorch, where there is one.
  const pythonPath = process.env.COLBENCH_TORCH_PYTHONPATH;
  const python = process.env.COLBENCH_PYTHON ?? "python3";
  let torch: { images: number; seconds: number; threads: number; torch: string; transformers: string } | null = null;
  let torchError = 0;
  let torchAbsent = "";
  const env = { ...process.env, ...(pythonPath ? { PYTHONPATH: pythonPath } : {}) };
  const probe = spawnSync(python, ["-c", "import torch, transformers"], { env, encoding: "utf8" });
  if (probe.status !== 0) {
    torchAbsent = `PyTorch: absent (${python} cannot import torch and transformers${pythonPath ? ` from ${pythonPath}` : ""}; set COLBENCH_TORCH_PYTHONPATH)`;
  } else {
    const pixelFile = path.join(out, `clip-pixels-${pixels.length}.f32`);
    const all = new Float32Array(pixels.length * 3 * S * S);
    pixels.forEach((p, i) => all.set(p, i * 3 * S * S));
    writeFileSync(pixelFile, Buffer.from(all.buffer));
    const embedFile = path.join(out, "clip-torch-embeddings.f32");
    const result = spawnSync(python, [path.join(projectRoot, "bench", "clip_torch.py"), folder, pixelFile, String(pixels.length), String(S), String(opts.batch), embedFile], { env, encoding: "utf8", maxBuffer: 1 << 24 });
    if (result.status !== 0) throw new Error(`PyTorch bench failed:\n${result.stderr}`);
    torch = JSON.parse(result.stdout.trim().split("\n").pop()!);
    const theirs = new Float32Array(readFileSync(embedFile).buffer.slice(0));
    const dim = theirs.length / 16;
    torchError = Math.max(...Array.from({ length: Math.min(16, pixels.length) }, (_, i) => maxAbs(theirs.subarray(i * dim, (i + 1) * dim), ortEmbeddings[i]!)));
  }

  console.log("");
  console.log(`TypeScript reference   ${rate(refSeconds, refCount)}  ${ms(refSeconds, refCount)}  (first ${refCount} images; max |Δ| to ORT ${refError.toExponential(1)})`);
  console.log(`onnxruntime-node b=1   ${rate(ortSingleSeconds, opts.batch1)}  ${ms(ortSingleSeconds, opts.batch1)}  (first ${opts.batch1} images)`);
  console.log(`onnxruntime-node b=${opts.batch}   ${rate(ortSeconds, pixels.length)}  ${ms(ortSeconds, pixels.length)}  (${pixels.length} images, ${availableParallelism()} threads)`);
  if (torch) console.log(`PyTorch CPU b=${opts.batch}        ${rate(torch.seconds, torch.images)}  ${ms(torch.seconds, torch.images)}  (${torch.images} images, ${torch.threads} threads, torch ${torch.torch}; max |Δ| to ORT ${torchError.toExponential(1)})`);
  else console.log(torchAbsent);
  console.log("");
  const ortPer = ortSeconds / pixels.length;
  console.log(`ratio ORT / TypeScript reference, time per image: ${(ortPer / (refSeconds / refCount)).toFixed(4)} (ORT ${((refSeconds / refCount) / ortPer).toFixed(1)}x faster; goal >= 30x)`);
  if (torch) console.log(`ratio ORT / PyTorch CPU, time per image at batch ${opts.batch}: ${(ortPer / (torch.seconds / torch.images)).toFixed(3)} (goal <= 1, aim 0.6)`);
  console.log(`note: preprocessing adds ${ms(preprocessSeconds, pixels.length)} on one thread to every engine; in scoring it overlaps ORT's batches`);
}

await main();
