// Generation speed: the studio's generator (lib/gpu/generate: prefill, KV cache, decode) on WebGPU
// and on the CPU reference path, beside transformers' `generate` (bench/generate_torch.py, run as a
// child process) on the same model folder and the same prompt ids, side by side: time to first
// token (prefill + the first pick) and decode tokens/s (the tokens after it). Greedy, exactly --new
// tokens on both sides (no end token stops either), so both do the same work; whether the tokens are
// the same is printed too.
//
//   npx tsx bench/generate.ts [--model DIR] [--prompt 128] [--new 64] [--runs 3] [--devices webgpu,cpu]
//       [--peer auto|skip|require] [--python python3] [--torch-device cpu|cuda] [--torch-dtype float32] [--attn sdpa|eager]
//
// DIR: a Hugging Face model folder (config.json, safetensors; tokenizer.json optional: without it the
// tokens are not decoded to text). Default: the committed tiny Llama (lib/gpu/fixtures/llama-tiny).
// The prompt is --prompt seeded random ids. The last line is a JSON summary (bench/gpu/run.py reads it).
// Speed figures from a software adapter say nothing about a GPU.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import "../lib/gpu/node/register-wgsl.mjs";
import type { DecodeEngine } from "../lib/gpu/model/decode";

// The GPU modules import WGSL as text: loaded after the hook above is registered.
const { openNodeGpu } = await import("../lib/gpu/node/open");
const { GpuModel } = await import("../lib/gpu/model/gpu-model");
const { CpuModel } = await import("../lib/gpu/model/cpu-model");
const { ModelTokenizer } = await import("../lib/gpu/model/tokenizer");
const { folderSource } = await import("../lib/gpu/node/folder-source");
const { generate } = await import("../lib/gpu/generate/generate");
const { seeded, ints } = await import("../lib/gpu/testing/random");

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const whole = (name: string, fallback: string) => {
  const n = Number(option(name, fallback));
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${name}: expected a positive whole number, got ${option(name, fallback)}`);
  return n;
};
// The repository (bench/gpu/run.py passes it: the bundle runs from elsewhere).
const ROOT = path.resolve(option("root", path.resolve(import.meta.dirname, "..")));
const MODEL = path.resolve(option("model", path.join(ROOT, "lib", "gpu", "fixtures", "llama-tiny")));
const PROMPT = whole("prompt", "128");
const NEW = whole("new", "64");
const RUNS = whole("runs", "3");
const DEVICES = option("devices", "webgpu,cpu").split(",").filter(Boolean);
const PEER = option("peer", "auto");
const PYTHON = option("python", "python3");
for (const d of DEVICES)
  if (d !== "webgpu" && d !== "cpu") throw new Error(`--devices: ${d} is neither webgpu nor cpu`);
if (!["auto", "skip", "require"].includes(PEER)) throw new Error(`--peer: expected auto, skip or require, got ${PEER}`);

interface Side {
  engine: string;
  first_token_ms: number;
  decode_tokens_per_s: number | null;
  ids: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeEngine(
  engine: DecodeEngine,
  decoder: { decode(ids: number[]): string },
  prompt: number[],
): Promise<Side> {
  // Warm-up: pipelines compiled, buffers allocated.
  await generate(engine, decoder, prompt, { maxNewTokens: Math.min(NEW, 2) });
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await generate(engine, decoder, prompt, { maxNewTokens: NEW }));
  const decodeMs = median(runs.map((g) => g.timing.decodeMs));
  return {
    engine: engine.device,
    first_token_ms: median(runs.map((g) => g.timing.firstTokenMs)),
    decode_tokens_per_s: decodeMs > 0 ? (NEW - 1) / (decodeMs / 1000) : null,
    ids: runs[0]!.ids,
  };
}

function runPeer(promptFile: string): Side | { skipped: string } {
  if (PEER === "skip") return { skipped: "--peer skip" };
  const script = path.join(ROOT, "bench", "generate_torch.py");
  const extra = [
    ...(args.includes("--torch-device") ? ["--device", option("torch-device", "")] : []),
    ...(args.includes("--torch-dtype") ? ["--dtype", option("torch-dtype", "")] : []),
    ...(args.includes("--attn") ? ["--attn", option("attn", "")] : []),
  ];
  const result = spawnSync(
    PYTHON,
    [script, MODEL, "--prompt-file", promptFile, "--new", String(NEW), "--runs", String(RUNS), ...extra],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  const last = (result.stdout ?? "").trim().split("\n").pop() ?? "";
  if (result.status === 0 && last.startsWith("{")) return JSON.parse(last) as Side;
  const why = `${PYTHON} ${path.relative(ROOT, script)} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr ?? "").trim().split("\n").slice(-1)[0] ?? ""}`;
  if (PEER === "require") throw new Error(why);
  return { skipped: `${why}; needs torch and transformers (see lib/gpu/README.md)` };
}

function firstDifference(a: number[], b: number[]): string {
  const at = a.findIndex((x, i) => x !== b[i]);
  return at < 0 && a.length === b.length
    ? "the same ids"
    : `ids differ from step ${at < 0 ? Math.min(a.length, b.length) : at}`;
}

async function main() {
  const source = folderSource(MODEL);
  const config = JSON.parse(fs.readFileSync(path.join(MODEL, "config.json"), "utf8")) as { vocab_size: number };
  const prompt = [...ints(seeded(11), PROMPT, config.vocab_size)];
  const decoder = fs.existsSync(path.join(MODEL, "tokenizer.json"))
    ? await ModelTokenizer.load(source)
    : { decode: () => "" };
  const promptFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "colbench-generate-")), "prompt.json");
  fs.writeFileSync(promptFile, JSON.stringify(prompt));
  console.log(
    `model ${MODEL}; prompt ${PROMPT} ids (seeded), ${NEW} new tokens, greedy; median of ${RUNS} runs after a warm-up`,
  );

  const sides: Record<string, Side> = {};
  for (const device of DEVICES) {
    let engine: DecodeEngine & { dispose(): void };
    if (device === "webgpu") engine = await GpuModel.load(await openNodeGpu(), source);
    else engine = await CpuModel.load(source);
    sides[device] = await timeEngine(engine, decoder, prompt);
    engine.dispose();
  }
  const peer = runPeer(promptFile);
  const theirs = "skipped" in peer ? null : peer;

  const row = (name: string, s: Side) =>
    `${name.padEnd(10)} ${s.first_token_ms.toFixed(1).padStart(10)} ms  ${(s.decode_tokens_per_s?.toFixed(1) ?? "-").padStart(9)} tok/s  ${s.engine}`;
  console.log(`\n${"".padEnd(10)} ${"first token".padStart(13)}  ${"decode".padStart(15)}`);
  for (const [name, s] of Object.entries(sides)) console.log(row(`studio ${name}`, s));
  if (theirs) console.log(row("transformers", theirs));
  else console.log(`transformers: skipped (${(peer as { skipped: string }).skipped})`);

  const summary: Record<string, unknown> = {
    model: MODEL,
    prompt: PROMPT,
    new: NEW,
    runs: RUNS,
    transformers: theirs ? { ...theirs, ids: undefined } : peer,
  };
  for (const [name, s] of Object.entries(sides)) {
    const entry: Record<string, unknown> = {
      engine: s.engine,
      first_token_ms: s.first_token_ms,
      decode_tokens_per_s: s.decode_tokens_per_s,
    };
    if (theirs) {
      entry.first_token_ratio = s.first_token_ms / theirs.first_token_ms;
      entry.decode_ratio =
        s.decode_tokens_per_s && theirs.decode_tokens_per_s ? s.decode_tokens_per_s / theirs.decode_tokens_per_s : null;
      entry.tokens = firstDifference(s.ids, theirs.ids);
      console.log(
        `studio ${name} / transformers: first token ${(entry.first_token_ratio as number).toFixed(2)}x the time, decode ${entry.decode_ratio === null ? "-" : (entry.decode_ratio as number).toFixed(2)}x the speed; ${entry.tokens as string}`,
      );
    }
    summary[name] = entry;
  }
  console.log(JSON.stringify(summary));
}

await main();
