import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBGPU_CHROMIUM_FLAGS } from "../chromium-flags";

// The same kernel table and the scorer, in Chromium on SwiftShader's WebGPU (what CI has): a page
// on 127.0.0.1 (WebGPU wants a secure context) loads an esbuild bundle of lib/gpu and the fixtures
// over HTTP. Vitest drives Chromium through Playwright's library here rather than as an e2e spec:
// no studio build is needed, and the cases and fixtures are the Node tests' own.

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const CLIP_FIXTURES = path.resolve(import.meta.dirname, "../../scoring/frontend/embedders/fixtures");
const clipExpected = JSON.parse(fs.readFileSync(path.join(CLIP_FIXTURES, "expected.json"), "utf8")) as {
  embedding: { input: string; values: number[] };
};
const CHROMIUM = [
  process.env.COLBENCH_CHROMIUM,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].find((p) => p && fs.existsSync(p));
const parity = JSON.parse(fs.readFileSync(path.join(FIXTURES, "parity.json"), "utf8")) as {
  models: Record<string, { prefix: string; candidates: string[]; logprobs: Record<string, number[][]> }>;
};

// One case per kernel (each weight format once): SwiftShader takes seconds to compile a pipeline, so
// the whole table (kernels.test.ts) runs on Dawn in Node and this subset checks the browser's path.
const CASES = [
  "matmul 7x33x17 f16 +bias +residual",
  "matmul 1x300x70 f16 +bias +residual",
  "matmul 16x9x300 bf16 +residual at 37",
  "rmsnorm 1x37 f32",
  "rope 7 rows, 6/2 heads of 10, llama3",
  "attention prefix 513, 16 candidate(s) of ≤7, 4/2 heads of 16",
  "attention prefix 5, 4 candidate(s) of ≤19, 4/2 heads of 16, not causal",
  "mlp 1x37, inner 45, f32",
  "embed 7 ids, 300x17 f32",
  "logprobs 1 rows, vocabulary 101x33 f32",
  "segments 513 values, 16 segments",
  // CLIP's operators.
  "layernorm 3x64 bf16, rows 640 apart",
  "quick-gelu-mlp 50x64, inner 128, f16",
  "l2-normalize 9x512",
  "patches 3 image(s) of 12, patch 4",
  "attention prefix 0, 3 candidate(s) of ≤50, 4/4 heads of 64, not causal",
];

let server: http.Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM)
    throw new Error("no Chromium found: run `npm run setup` (installs Debian's chromium) or set COLBENCH_CHROMIUM");
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, "browser-entry.ts")],
    bundle: true,
    format: "esm",
    write: false,
    loader: { ".wgsl": "text" },
    platform: "browser",
    logLevel: "error",
  });
  const script = bundle.outputFiles[0]!.text;
  server = http.createServer((request, response) => {
    const url = new URL(request.url!, "http://x");
    if (url.pathname === "/") return response.end('<!doctype html><script type="module" src="/bundle.js"></script>');
    if (url.pathname === "/bundle.js")
      return response.writeHead(200, { "content-type": "text/javascript" }).end(script);
    const [prefix, root] = url.pathname.startsWith("/clip-fixtures/")
      ? ["/clip-fixtures/", CLIP_FIXTURES]
      : ["/fixtures/", FIXTURES];
    const file = path.join(root, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!url.pathname.startsWith(prefix) || !file.startsWith(root) || !fs.existsSync(file))
      return response.writeHead(404).end();
    response.writeHead(200, { "content-length": fs.statSync(file).size });
    if (request.method === "HEAD") return response.end();
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      ...WEBGPU_CHROMIUM_FLAGS,
    ],
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => "kernelCases" in globalThis);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("lib/gpu in Chromium (SwiftShader WebGPU)", () => {
  it("a case of each kernel matches its CPU reference", { timeout: 180_000 }, async () => {
    const { adapter, results } = await page.evaluate(
      (names) =>
        (
          globalThis as unknown as {
            kernelCases(n: string[]): Promise<{
              adapter: { architecture: string };
              results: Array<{ name: string; error: number | string; tolerance: number; ms: number }>;
            }>;
          }
        ).kernelCases(names),
      CASES,
    );
    console.log(
      `Chromium adapter: ${adapter.architecture}, ${os.cpus().length} cores; ${results.map((r) => `${r.name} ${r.ms.toFixed(0)} ms`).join(", ")}`,
    );
    expect(results.map((r) => r.name)).toEqual(CASES);
    for (const r of results)
      expect({ name: r.name, ok: typeof r.error === "number" && r.error <= r.tolerance }).toEqual({
        name: r.name,
        ok: true,
      });
  });

  it(
    "scores the sharded Qwen2 fixture as PyTorch does, loading its weights with progress",
    { timeout: 180_000 },
    async () => {
      const p = parity.models.qwen2!;
      const { loads, logprobs } = await page.evaluate(
        ([prefix, candidates]) =>
          (
            globalThis as unknown as {
              scoreFixture(
                f: string,
                p: string,
                c: string[],
              ): Promise<{ loads: number[]; logprobs: Array<Array<number | null>> }>;
            }
          ).scoreFixture("qwen2-tiny", prefix, candidates),
        [p.prefix, p.candidates] as const,
      );
      expect(loads.at(-1)).toBe(1);
      let worst = 0;
      logprobs.forEach((tokens, i) => {
        expect(tokens[0]).toBeNull();
        p.logprobs["qwen2-tiny"]![i]!.forEach((want, t) => (worst = Math.max(worst, Math.abs(tokens[t + 1]! - want))));
      });
      console.log(`Chromium qwen2-tiny vs PyTorch: max abs error ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-3);
    },
  );

  it(
    "generates on the Qwen2 fixture as transformers does, and draws a seed's tokens as Node does",
    { timeout: 180_000 },
    async () => {
      const reference = JSON.parse(fs.readFileSync(path.join(FIXTURES, "generation.json"), "utf8")) as {
        models: Record<
          string,
          { cases: Array<{ ids: number[]; generated: number[]; steps: Array<{ top: Array<[number, number]> }> }> }
        >;
      };
      const cases = reference.models.qwen2!.cases;
      type Generated = Array<{ ids: number[]; logits: number[][] }>;
      const run = (prompts: number[][], n: number, sampling?: unknown) =>
        page.evaluate(
          ([p, k, s]) =>
            (
              globalThis as unknown as {
                generateFixture(f: string, p: number[][], k: number, s?: unknown): Promise<Generated>;
              }
            ).generateFixture("qwen2-tiny", p, k, s),
          [prompts, n, sampling] as const,
        );
      const greedy = await run(
        cases.map((c) => c.ids),
        64,
      );
      let worst = 0;
      greedy.forEach((g, i) => {
        expect(g.ids).toEqual(cases[i]!.generated);
        g.logits.forEach((logits, step) => {
          for (const [token, value] of cases[i]!.steps[step]!.top)
            worst = Math.max(worst, Math.abs(logits[token]! - value));
        });
      });
      console.log(
        `Chromium generation qwen2-tiny vs transformers: max |logit difference| ${worst.toExponential(2)} (top 16 of 3 x 64 steps)`,
      );
      expect(worst).toBeLessThan(1e-3);
      // The same seed in Node (CPU path) and in the page: the same draws.
      const { CpuModel } = await import("../model/cpu-model");
      const { ModelTokenizer } = await import("../model/tokenizer");
      const { folderSource } = await import("../node/folder-source");
      const { generate } = await import("../generate/generate");
      const source = folderSource(path.join(FIXTURES, "qwen2-tiny"));
      const sampling = { temperature: 1.3, topP: 0.9, seed: 11 };
      const node = await generate(await CpuModel.load(source), await ModelTokenizer.load(source), cases[0]!.ids, {
        maxNewTokens: 24,
        sampling,
      });
      expect((await run([cases[0]!.ids], 24, sampling))[0]!.ids).toEqual(node.ids);
    },
  );

  it(
    "embeds the CLIP fixture's screenshot as transformers does (the PNG decoded by the browser, weights streamed)",
    { timeout: 180_000 },
    async () => {
      const { f16, embeddings } = await page.evaluate(
        ([image]) =>
          (
            globalThis as unknown as {
              embedClipFixture(
                f: string,
                i: string,
                formats: string[],
              ): Promise<{ f16: boolean; embeddings: Record<string, number[]> }>;
            }
          ).embedClipFixture("tiny-clip", image, ["f32", "f16"]),
        [clipExpected.embedding.input] as const,
      );
      const error = (got: number[]) => Math.max(...clipExpected.embedding.values.map((v, i) => Math.abs(v - got[i]!)));
      console.log(
        `Chromium CLIP vs transformers: f32 ${error(embeddings.f32!).toExponential(2)}, f16 weights ${error(embeddings.f16!).toExponential(2)} (shader-f16: ${f16})`,
      );
      expect(embeddings.f32).toHaveLength(clipExpected.embedding.values.length);
      expect(error(embeddings.f32!)).toBeLessThan(1e-4);
      expect(error(embeddings.f16!)).toBeLessThan(2e-3);
    },
  );
});
