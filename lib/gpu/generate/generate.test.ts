import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gpu } from "../gpu";
import { CpuModel } from "../model/cpu-model";
import type { DecodeEngine } from "../model/decode";
import { GpuModel } from "../model/gpu-model";
import { ModelTokenizer } from "../model/tokenizer";
import { folderSource } from "../node/folder-source";
import { openLocalGenerator } from "../node/local-generator";
import { openNodeGpu } from "../node/open";
import { generate } from "./generate";

// Generation against transformers' greedy `generate` on the committed random-weight models
// (fixtures/make_generation.py: Llama 3 rope scaling and grouped-query heads; Qwen2 biases, tied
// head, padded vocabulary): the same 64 tokens on every prompt, and each step's logits (the top 16,
// the log-sum-exp over the vocabulary, all of them at three steps) within 1e-5 on the CPU path and
// 1e-3 on WebGPU. Then sampling, stops and streaming.

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

interface Case {
  prompt: string;
  ids: number[];
  generated: number[];
  steps: Array<{ top: Array<[number, number]>; lse: number }>;
  full: Record<string, string>;
}
const reference = JSON.parse(fs.readFileSync(path.join(FIXTURES, "generation.json"), "utf8")) as {
  newTokens: number;
  models: Record<string, { folder: string; vocab: number; cases: Case[] }>;
};

function f32(base64: string): Float32Array {
  const bytes = Buffer.from(base64, "base64");
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function logSumExp(logits: Float32Array): number {
  const max = Math.max(...logits);
  return max + Math.log(logits.reduce((a, l) => a + Math.exp(l - max), 0));
}

let gpu: Gpu;
beforeAll(async () => {
  gpu = await openNodeGpu();
});
afterAll(() => gpu?.destroy());

const engines: Record<"cpu" | "webgpu", (folder: string) => Promise<DecodeEngine>> = {
  cpu: (folder) => CpuModel.load(folderSource(folder)),
  webgpu: (folder) => GpuModel.load(gpu, folderSource(folder)),
};

describe.each([
  ["cpu", 1e-5],
  ["webgpu", 1e-3],
] as const)("greedy generation on %s against transformers", (device, tolerance) => {
  it.each(Object.keys(reference.models))("%s: the same tokens and logits on every prompt", async (family) => {
    const entry = reference.models[family]!;
    const folder = path.join(FIXTURES, entry.folder);
    const tokenizer = await ModelTokenizer.load(folderSource(folder));
    const engine = await engines[device](folder);
    let worst = 0;
    for (const c of entry.cases) {
      expect(tokenizer.encode(c.prompt).ids).toEqual(c.ids);
      const out = await generate(engine, tokenizer, c.ids, { maxNewTokens: reference.newTokens, keepLogits: true });
      expect(out.ids).toEqual(c.generated);
      expect(out.finish).toBe("length");
      expect(out.logits).toHaveLength(reference.newTokens);
      out.logits!.forEach((logits, step) => {
        expect(logits).toHaveLength(entry.vocab);
        const want = c.steps[step]!;
        for (const [token, value] of want.top) worst = Math.max(worst, Math.abs(logits[token]! - value));
        worst = Math.max(worst, Math.abs(logSumExp(logits) - want.lse));
        if (c.full[String(step)])
          f32(c.full[String(step)]!).forEach((v, t) => (worst = Math.max(worst, Math.abs(logits[t]! - v))));
      });
    }
    console.log(
      `generation ${device} ${family}: max |logit − transformers| ${worst.toExponential(2)} over ${entry.cases.length} prompts × ${reference.newTokens} steps`,
    );
    expect(worst).toBeLessThanOrEqual(tolerance);
  });
});

describe("sampling, stops and streaming", () => {
  const family = "llama";
  const entry = reference.models[family]!;
  const folder = path.join(FIXTURES, entry.folder);
  const c = entry.cases[0]!;
  let tokenizer: ModelTokenizer;
  let cpu: DecodeEngine;
  let webgpu: DecodeEngine;
  beforeAll(async () => {
    tokenizer = await ModelTokenizer.load(folderSource(folder));
    cpu = await engines.cpu(folder);
    webgpu = await engines.webgpu(folder);
  });

  it("a seed draws the same tokens on every run and device; another seed others; a tiny top-p is greedy", async () => {
    const sampled = (engine: DecodeEngine, seed: number, topP = 0.95) =>
      generate(engine, tokenizer, c.ids, { maxNewTokens: 24, sampling: { temperature: 1.5, topP, seed } });
    const first = (await sampled(cpu, 7)).ids;
    expect((await sampled(cpu, 7)).ids).toEqual(first);
    expect((await sampled(webgpu, 7)).ids).toEqual(first);
    expect((await sampled(webgpu, 7)).ids).toEqual(first);
    expect((await sampled(cpu, 8)).ids).not.toEqual(first);
    // Not greedy at this temperature, and a nucleus of one token is.
    expect(first).not.toEqual(c.generated.slice(0, 24));
    expect((await sampled(cpu, 7, 1e-9)).ids).toEqual(c.generated.slice(0, 24));
  });

  it("stops at an end token, which the text leaves out", async () => {
    const k = 5;
    const end = c.generated[k]!;
    const first = c.generated.indexOf(end);
    const out = await generate(cpu, tokenizer, c.ids, { maxNewTokens: 64, stopTokens: [end] });
    expect(out.finish).toBe("stop-token");
    expect(out.ids).toEqual(c.generated.slice(0, first + 1));
    expect(out.text).toBe(tokenizer.decode(c.generated.slice(0, first)));
  });

  it("stops at a stop string, cut before it, and never streams any of it", async () => {
    const whole = tokenizer.decode(c.generated);
    const stop = whole.slice(40, 44);
    const at = whole.indexOf(stop);
    const pieces: string[] = [];
    const out = await generate(webgpu, tokenizer, c.ids, {
      maxNewTokens: 64,
      stopStrings: ["never in this text \u0000", stop],
      onText: (p) => pieces.push(p),
    });
    expect(out.finish).toBe("stop-string");
    expect(out.text).toBe(whole.slice(0, at));
    expect(pieces.join("")).toBe(out.text);
    expect(out.ids.length).toBeLessThan(64);
    expect(tokenizer.decode(out.ids)).toContain(stop);
  });

  it("streams every token's text as it comes, adding up to the whole text", async () => {
    const pieces: Array<[string, number]> = [];
    const out = await generate(cpu, tokenizer, c.ids, {
      maxNewTokens: 16,
      onText: (p, s) => pieces.push([p, s.tokens]),
    });
    expect(pieces.map((p) => p[0]).join("")).toBe(out.text);
    expect(out.text).toBe(tokenizer.decode(c.generated.slice(0, 16)));
    // Pieces arrive during generation, not all at the end.
    expect(new Set(pieces.map((p) => p[1])).size).toBeGreaterThan(8);
    expect(out.timing.decodeSteps).toBe(15);
  });

  it("prefills a prompt longer than one pass in several, and decodes as after one", async () => {
    const small = await GpuModel.load(gpu, folderSource(folder), { maxRows: 16 });
    expect(small.maxRows).toBe(16);
    expect(c.ids.length).toBeGreaterThan(3 * 16);
    const out = await generate(small, tokenizer, c.ids, { maxNewTokens: 24 });
    expect(out.ids).toEqual(c.generated.slice(0, 24));
    small.dispose();
  });

  it("refuses a token outside the vocabulary and a prompt past the session's capacity", async () => {
    const session = cpu.startSession(4);
    await expect(session.append([0, 1, 2, 3, 4])).rejects.toThrow(/more than the session's 4/);
    await expect(session.append([99999])).rejects.toThrow(/outside the model's vocabulary/);
  });

  it("a chat model: the template's prompt without a second BOS, the model's end tokens, the record's names", async () => {
    const generator = await openLocalGenerator(folder, { device: "cpu" });
    expect(generator.model).toBe(folder);
    expect(generator.template).toBe("llama3");
    expect(generator.endTokens).toEqual([tokenizer.idOf("<|eot_id|>")]);
    const prompt = generator.prompt([
      { role: "user", content: "Can you write me a function that tells me what to charge for shipping?" },
    ]);
    expect(prompt.ids.filter((id) => id === tokenizer.idOf("<|begin_of_text|>"))).toHaveLength(1);
    expect(prompt.ids).toEqual(c.ids);
    const out = await generator.chat(
      [{ role: "user", content: "Can you write me a function that tells me what to charge for shipping?" }],
      { maxNewTokens: 8 },
    );
    expect(out.ids).toEqual(c.generated.slice(0, 8));
    expect(out.prompt).toBe(`<|begin_of_text|>${c.prompt}`);
  });
});
