// The parity cases of lib/gpu on whatever adapter Dawn opens (the GPU on a lent machine), outside
// Vitest so it runs from a bundle with Node alone: every kernel case against its CPU reference, the
// scorer on the committed Llama/Qwen2 fixtures against PyTorch's log-probs (parity.json), and the
// tiny CLIP against transformers (expected.json). Prints one line per case and a JSON summary last;
// exits 1 when any case misses its tolerance.
//
//   node parity.mjs [--root REPO] [--only "NAME"]...    (or: npx tsx bench/gpu/parity.ts)

import fs from "node:fs";
import path from "node:path";
import "../../lib/gpu/node/register-wgsl.mjs";

// The GPU modules import WGSL as text: loaded after the hook above is registered (inside the
// bundle the kernels are inlined and the hook finds nothing to do).
const { openNodeGpu } = await import("../../lib/gpu/node/open");
const { KERNEL_CASES } = await import("../../lib/gpu/kernels/cases");
const { maxError } = await import("../../lib/gpu/testing/random");
const { folderSource } = await import("../../lib/gpu/node/folder-source");
const { GpuModel } = await import("../../lib/gpu/model/gpu-model");
const { LocalScorer } = await import("../../lib/gpu/model/scorer");
const { ModelTokenizer } = await import("../../lib/gpu/model/tokenizer");
const { GpuClipVision } = await import("../../lib/gpu/clip/vision");
const { loadClipVision } = await import("../../lib/scoring/frontend/embedders/clip-vision");
const { clipPreprocess } = await import("../../lib/scoring/frontend/embedders/clip-preprocess");
const { decodePng } = await import("../../lib/scoring/frontend/png");

const argv = process.argv.slice(2);
const root = path.resolve(argv.includes("--root") ? argv[argv.indexOf("--root") + 1]! : process.cwd());
const only = argv.flatMap((a, i) => (argv[i - 1] === "--only" ? [a] : []));
const wanted = (name: string) => only.length === 0 || only.includes(name);

const GPU_FIXTURES = path.join(root, "lib", "gpu", "fixtures");
const CLIP_FIXTURES = path.join(root, "lib", "scoring", "frontend", "embedders", "fixtures");
if (!fs.existsSync(GPU_FIXTURES))
  throw new Error(`--root: ${root} has no lib/gpu/fixtures (run from the repository root or pass --root)`);

/** [folder, family, reference in parity.json, tolerance]: the cases of lib/gpu/model/parity.test.ts. */
const MODEL_CASES: Array<[string, string, string, number]> = [
  ["llama-tiny", "llama", "llama-tiny", 1e-3],
  ["llama-tiny-bf16", "llama", "llama-tiny-bf16-weights", 1e-3],
  ["qwen2-tiny", "qwen2", "qwen2-tiny", 1e-3],
  ["qwen2-tiny-fp16", "qwen2", "qwen2-tiny-fp16-weights", 1e-3],
  ["qwen2-tiny-fp16", "qwen2", "qwen2-tiny-fp16", 2e-2],
];
/** The tiny CLIP against transformers, per weight format (the limits of clip-webgpu.test.ts). */
const CLIP_CASES: Array<["f32" | "f16", number]> = [
  ["f32", 1e-4],
  ["f16", 2e-3],
];

type Result = { name: string; error: number | null; tolerance: number; ms: number; failure?: string };
const results: Result[] = [];

async function check(name: string, tolerance: number, run: () => Promise<number>): Promise<void> {
  if (!wanted(name)) return;
  const started = performance.now();
  let result: Result;
  try {
    const error = await run();
    result = { name, error, tolerance, ms: performance.now() - started };
  } catch (error) {
    result = {
      name,
      error: null,
      tolerance,
      ms: performance.now() - started,
      failure: String((error as Error).stack ?? error),
    };
  }
  results.push(result);
  const ok = result.error !== null && result.error <= tolerance;
  const what =
    result.error === null
      ? `FAILED: ${result.failure}`
      : `max |Δ| ${result.error.toExponential(2)} (limit ${tolerance})`;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${what}, ${result.ms.toFixed(0)} ms`);
}

const gpu = await openNodeGpu();
const info = gpu.info;
const adapter = `${info.graphicsApi}: ${info.description || info.architecture || info.vendor}${info.software ? " (software)" : ""}`;
console.log(
  `adapter ${adapter}; vendor ${info.vendor}, architecture ${info.architecture}; shader-f16 ${info.f16 ? "yes" : "no"}`,
);

for (const c of KERNEL_CASES) {
  await check(`kernel ${c.kernel} ${c.shape}`, c.tolerance, async () => {
    const { got, want } = await c.run(gpu);
    if (got.length !== want.length) throw new Error(`${got.length} values, expected ${want.length}`);
    return maxError(got, want);
  });
}

const parity = JSON.parse(fs.readFileSync(path.join(GPU_FIXTURES, "parity.json"), "utf8")) as {
  models: Record<string, { prefix: string; candidates: string[]; logprobs: Record<string, number[][]> }>;
};
for (const [folder, family, reference, tolerance] of MODEL_CASES) {
  await check(`model ${folder} vs PyTorch's ${reference}`, tolerance, async () => {
    const source = folderSource(path.join(GPU_FIXTURES, folder));
    const scorer = new LocalScorer(await GpuModel.load(gpu, source), await ModelTokenizer.load(source), folder);
    try {
      const p = parity.models[family]!;
      const scores = await scorer.scoreContinuations(p.prefix, p.candidates, { prefixLogprobs: true });
      let worst = 0;
      scores.forEach((s, i) => {
        const want = p.logprobs[reference]![i]!;
        if (s.tokens.length !== want.length + 1)
          throw new Error(`candidate ${i}: ${s.tokens.length} tokens, PyTorch scored ${want.length} + 1`);
        want.forEach((w, t) => (worst = Math.max(worst, Math.abs(s.tokens[t + 1]!.logprob! - w))));
      });
      return worst;
    } finally {
      scorer.dispose();
    }
  });
}

const clipExpected = (
  JSON.parse(fs.readFileSync(path.join(CLIP_FIXTURES, "expected.json"), "utf8")) as {
    embedding: { input: string; values: number[] };
  }
).embedding;
for (const [format, tolerance] of CLIP_CASES) {
  await check(`clip tiny-clip ${format} weights vs transformers`, tolerance, async () => {
    const model = loadClipVision(path.join(CLIP_FIXTURES, "tiny-clip"));
    const pixels = clipPreprocess(
      decodePng(fs.readFileSync(path.join(CLIP_FIXTURES, clipExpected.input))),
      model.config.imageSize,
    );
    const vision = GpuClipVision.load(gpu, model, { format });
    try {
      return maxError((await vision.embed([pixels]))[0]!, clipExpected.values);
    } finally {
      vision.dispose();
    }
  });
}

gpu.destroy();
const failed = results.filter((r) => r.error === null || r.error > r.tolerance);
if (results.length === 0) throw new Error(`no case is named ${only.map((o) => `"${o}"`).join(", ")}`);
console.log(`\nparity: ${results.length - failed.length}/${results.length} cases within their limits on ${adapter}`);
console.log(
  JSON.stringify({
    parity: {
      adapter,
      software: info.software,
      vendor: info.vendor,
      cases: results.length,
      failed: failed.map((f) => f.name),
      worstOfLimit: Math.max(
        ...results.filter((r) => r.tolerance > 0 && r.error !== null).map((r) => r.error! / r.tolerance),
      ),
    },
  }),
);
process.exit(failed.length ? 1 : 0);
