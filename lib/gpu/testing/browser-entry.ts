import { decodePngInBrowser } from "../../scoring/frontend/browser-png";
import { loadClipVisionFrom } from "../clip/source";
import { GpuClipVision, type ClipWeightFormat } from "../clip/vision";
import { KERNEL_CASES } from "../kernels/cases";
import { clipPreprocess } from "../../scoring/frontend/embedders/clip-preprocess";
import { generate } from "../generate/generate";
import type { Sampling } from "../generate/sampler";
import { GpuModel } from "../model/gpu-model";
import { LocalScorer } from "../model/scorer";
import { urlSource } from "../model/source";
import { ModelTokenizer } from "../model/tokenizer";
import { openBrowserGpu } from "../open-browser";
import { maxError } from "./random";

// What chromium.test.ts runs inside a page: the kernel table and the scorer on a fixture, on the
// page's own navigator.gpu. Bundled by esbuild as the browser would get it (WGSL as text).

// One device for the page: pipelines compiled for the kernel cases serve the scorer too.
let opened: ReturnType<typeof openBrowserGpu> | null = null;
const device = () => (opened ??= openBrowserGpu());

async function kernelCases(names: string[]) {
  const gpu = await device();
  const results: Array<{ name: string; error: number | string; tolerance: number; ms: number }> = [];
  for (const c of KERNEL_CASES) {
    const name = `${c.kernel} ${c.shape}`;
    if (!names.includes(name)) continue;
    const started = performance.now();
    try {
      const { got, want } = await c.run(gpu);
      results.push({ name, error: maxError(got, want), tolerance: c.tolerance, ms: performance.now() - started });
    } catch (error) {
      results.push({ name, error: String(error), tolerance: c.tolerance, ms: performance.now() - started });
    }
  }
  return { adapter: gpu.info, results };
}

async function scoreFixture(folder: string, prefix: string, candidates: string[]) {
  const gpu = await device();
  const source = urlSource(`${location.origin}/fixtures/${folder}`);
  const loads: number[] = [];
  const scorer = new LocalScorer(
    await GpuModel.load(gpu, source, { onProgress: (p) => loads.push(p.loaded / p.total) }),
    await ModelTokenizer.load(source),
    folder,
  );
  const scores = await scorer.scoreContinuations(prefix, candidates, { prefixLogprobs: true });
  scorer.dispose();
  return { loads, logprobs: scores.map((s) => s.tokens.map((t) => t.logprob)) };
}

/** Generation on a fixture streamed over HTTP: each prompt's tokens and every step's logits. */
async function generateFixture(folder: string, prompts: number[][], maxNewTokens: number, sampling?: Sampling) {
  const gpu = await device();
  const source = urlSource(`${location.origin}/fixtures/${folder}`);
  const model = await GpuModel.load(gpu, source);
  const tokenizer = await ModelTokenizer.load(source);
  const out = [];
  for (const prompt of prompts) {
    const g = await generate(model, tokenizer, prompt, { maxNewTokens, sampling, keepLogits: true });
    out.push({ ids: g.ids, logits: g.logits!.map((l) => Array.from(l)) });
  }
  model.dispose();
  return out;
}

/** The tiny CLIP fixture streamed over HTTP, a PNG decoded by the browser, embedded on WebGPU, in each weight format. */
async function embedClipFixture(folder: string, image: string, formats: ClipWeightFormat[]) {
  const gpu = await device();
  const model = await loadClipVisionFrom(urlSource(`${location.origin}/clip-fixtures/${folder}`));
  const png = await (await fetch(`${location.origin}/clip-fixtures/${image}`)).blob();
  const pixels = clipPreprocess(await decodePngInBrowser(png), model.config.imageSize);
  const out: Record<string, number[]> = {};
  for (const format of formats) {
    const vision = GpuClipVision.load(gpu, model, { format });
    out[format] = Array.from((await vision.embed([pixels]))[0]!);
    vision.dispose();
  }
  return { f16: gpu.info.f16, embeddings: out };
}

Object.assign(globalThis, { kernelCases, scoreFixture, embedClipFixture, generateFixture });
