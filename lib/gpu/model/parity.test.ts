import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gpu } from "../gpu";
import { folderSource } from "../node/folder-source";
import { openLocalScorer, type LocalDevice } from "../node/local-scorer";
import { openNodeGpu } from "../node/open";
import { GpuModel } from "./gpu-model";
import { LocalScorer } from "./scorer";
import type { WeightSource } from "./source";
import { ModelTokenizer } from "./tokenizer";

// The scorer against PyTorch on the committed fixtures (lib/gpu/fixtures/make_fixtures.py): small
// random Llama (Llama 3 rope scaling, f32 and bf16) and Qwen2 (biases, tied head, padded vocabulary,
// sharded f32 and f16) models, scoring four candidates after one shared critic-style prefix.

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const parity = JSON.parse(fs.readFileSync(path.join(FIXTURES, "parity.json"), "utf8")) as {
  models: Record<
    string,
    { prefix: string; candidates: string[]; ids: number[][]; logprobs: Record<string, number[][]> }
  >;
};

/** [folder, family, reference in parity.json, tolerance] */
const CASES: Array<[string, string, string, number]> = [
  ["llama-tiny", "llama", "llama-tiny", 1e-3],
  ["llama-tiny-bf16", "llama", "llama-tiny-bf16-weights", 1e-3],
  ["qwen2-tiny", "qwen2", "qwen2-tiny", 1e-3],
  ["qwen2-tiny-fp16", "qwen2", "qwen2-tiny-fp16-weights", 1e-3],
  ["qwen2-tiny-fp16", "qwen2", "qwen2-tiny-fp16", 2e-2],
];

/** Largest |ours − PyTorch's| over every scored token of every candidate (the whole sequence after its first token). */
async function worstError(scorer: LocalScorer, family: string, reference: string): Promise<number> {
  const p = parity.models[family]!;
  const scores = await scorer.scoreContinuations(p.prefix, p.candidates, { prefixLogprobs: true });
  let worst = 0;
  scores.forEach((s, i) => {
    const want = p.logprobs[reference]![i]!;
    expect(s.tokens.length).toBe(want.length + 1);
    expect(s.tokens[0]!.logprob).toBeNull();
    want.forEach((w, t) => (worst = Math.max(worst, Math.abs(s.tokens[t + 1]!.logprob! - w))));
  });
  return worst;
}

let gpu: Gpu;
beforeAll(async () => {
  gpu = await openNodeGpu();
});
afterAll(() => gpu?.destroy());

describe("tokenizers (@huggingface/tokenizers) against Python's tokenizers", () => {
  it.each(["llama", "qwen2"])("%s: the same ids for every prefix + candidate", async (family) => {
    const p = parity.models[family]!;
    const tokenizer = await ModelTokenizer.load(folderSource(path.join(FIXTURES, `${family}-tiny`)));
    expect(p.candidates.map((c) => tokenizer.encode(p.prefix + c).ids)).toEqual(p.ids);
  });

  it("finds each model's chat template family by rendering its Jinja template", async () => {
    expect((await ModelTokenizer.load(folderSource(path.join(FIXTURES, "llama-tiny")))).templateFamily()).toBe(
      "llama3",
    );
    expect((await ModelTokenizer.load(folderSource(path.join(FIXTURES, "qwen2-tiny")))).templateFamily()).toBe(
      "chatml",
    );
  });
});

describe.each(["webgpu", "cpu"] as LocalDevice[])("token log-probs on %s against PyTorch", (device) => {
  it.each(CASES)("%s vs %s's %s (max abs error < %s)", async (folder, family, reference, tolerance) => {
    const scorer = await openLocalScorer(path.join(FIXTURES, folder), { device, gpu });
    try {
      const error = await worstError(scorer, family, reference);
      console.log(`${device} ${folder} vs ${reference}: max abs error ${error.toExponential(2)}`);
      expect(error).toBeLessThan(tolerance);
    } finally {
      scorer.dispose();
    }
  });
});

describe("the shared prefix and the passes", () => {
  it("gives the same log-probs when the prefix and the candidates run in passes of 32 rows", async () => {
    const p = parity.models.llama!;
    const source = folderSource(path.join(FIXTURES, "llama-tiny"));
    const tokenizer = await ModelTokenizer.load(source);
    const small = new LocalScorer(await GpuModel.load(gpu, source, { maxRows: 32 }), tokenizer, "small passes");
    // Candidates cut short enough for one pass each; four of them still need several passes.
    const candidates = p.candidates.map((c) => c.slice(0, 40));
    const whole = await openLocalScorer(path.join(FIXTURES, "llama-tiny"), { gpu });
    try {
      const a = await small.scoreContinuations(p.prefix, candidates, { prefixLogprobs: true });
      const b = await whole.scoreContinuations(p.prefix, candidates, { prefixLogprobs: true });
      a.forEach((s, i) =>
        s.tokens.forEach((t, j) =>
          expect(Math.abs((t.logprob ?? 0) - (b[i]!.tokens[j]!.logprob ?? 0))).toBeLessThan(1e-5),
        ),
      );
    } finally {
      small.dispose();
      whole.dispose();
    }
  });

  it("a wrong rotary base is caught by the comparison (the check can fail)", async () => {
    const real = folderSource(path.join(FIXTURES, "qwen2-tiny"));
    const wrong: WeightSource = {
      ...real,
      text: async (name) => {
        const text = await real.text(name);
        return name === "config.json" ? text!.replace('"rope_theta": 1000000.0', '"rope_theta": 10000.0') : text;
      },
    };
    const scorer = new LocalScorer(await GpuModel.load(gpu, wrong), await ModelTokenizer.load(real), "wrong");
    try {
      expect(await worstError(scorer, "qwen2", "qwen2-tiny")).toBeGreaterThan(1e-3);
    } finally {
      scorer.dispose();
    }
  });
});
