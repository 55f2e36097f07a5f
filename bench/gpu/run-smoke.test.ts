import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layOutSmokeCarry } from "./bundle";

// bench/gpu/run.py, the command a lent GPU machine runs, here on the software adapter with its smoke
// sizes: the same Python driver, carried Node layout, bundles and stages. The GPU machine's time is
// short, so what is checked is what would cost it a try: the first line saying what the machine has,
// every stage passing within the budget it states, a missing PyTorch skipped cleanly with what to carry,
// and a stage cut at its cap reported as such.

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const python = spawnSync("python3", ["--version"]).status === 0;
const torch = python && spawnSync("python3", ["-c", "import torch, transformers, numpy"]).status === 0;
let carry: string;
let work: string;

function runPy(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string; ms: number }> {
  const started = performance.now();
  const child = spawn(
    "python3",
    [path.join(ROOT, "bench", "gpu", "run.py"), "--carry", carry, "--work", work, ...args],
    { cwd: ROOT, env: { ...process.env, OUT: "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: performance.now() - started });
    }),
  );
}

beforeAll(async () => {
  if (!python) return;
  carry = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-gpu-smoke-carry-"));
  work = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-gpu-smoke-work-"));
  await layOutSmokeCarry(carry);
}, 120_000);

afterAll(() => {
  for (const dir of [carry, work]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!python)("bench/gpu/run.py --smoke (skipped: no python3 on this machine)", () => {
  it(
    "names the machine on its first line, then passes every stage within its stated budget",
    { timeout: 400_000 },
    async () => {
      const budget = 300;
      const { code, out, ms } = await runPy(["--smoke", "--budget", String(budget)], (budget + 60) * 1000);
      const lines = out.split("\n");
      expect(lines[0]).toMatch(
        /^machine: GPU .+; Vulkan ICD .+; Python 3\.\d+\.\d+; torch .+; transformers .+; numpy .+$/,
      );
      expect(code, out).toBe(0);
      expect(ms / 1000).toBeLessThan(budget);
      const parity = /parity: (\d+)\/(\d+) cases within their limits/.exec(out);
      expect(parity, out).not.toBeNull();
      expect(parity![1]).toBe(parity![2]);
      const logprobs = /log-probs max \|webgpu - cpu reference\| (\S+)/.exec(out);
      expect(Number(logprobs?.[1]), out).toBeLessThan(1e-4);
      const summary = JSON.parse(fs.readFileSync(path.join(work, "summary.json"), "utf8")) as {
        stages: Record<string, { status: unknown }>;
        clip?: { webgpu?: { model?: string; images?: number } };
        machine_line: string;
      };
      expect(summary.machine_line).toBe(lines[0]);
      expect(summary.clip?.webgpu).toMatchObject({ model: "tiny", images: 4 });
      expect(out).toMatch(/generate \(32-token prompt, 16 new\): webgpu first token \S+ ms, decode \S+ tok\/s/);
      if (torch) {
        expect(Object.keys(summary.stages)).toEqual([
          "parity",
          "logprobs webgpu",
          "logprobs pytorch eager",
          "logprobs pytorch sdpa",
          "clip webgpu",
          "clip pytorch",
          "generate",
        ]);
        expect(out).toMatch(/ratio generate webgpu \/ transformers: .*; the same ids/);
        expect(Number(/clip max \|webgpu f32 - pytorch fp32\| (\S+)/.exec(out)?.[1])).toBeLessThan(1e-4);
      } else {
        expect(Object.keys(summary.stages)).toEqual(["parity", "logprobs webgpu", "clip webgpu", "generate"]);
        expect(out).toContain("PyTorch peers: skipped: missing torch");
        expect(out).toContain("--target .dev/gpu/pydeps");
      }
      expect(Object.values(summary.stages).every((s) => s.status === 0)).toBe(true);
    },
  );

  it("cuts a stage at --stage-timeout, says so and exits 1", { timeout: 120_000 }, async () => {
    const { code, out } = await runPy(["--smoke", "--only", "parity", "--stage-timeout", "1"], 90_000);
    expect(out.split("\n")[0]).toMatch(/^machine: /);
    expect(out).toMatch(/== parity \(cap 1 s\)/);
    expect(out).toContain("FAILED stage parity: timeout");
    expect(code).toBe(1);
  });

  it.skipIf(torch)(
    "with --peers require and no PyTorch, stops before anything long runs",
    { timeout: 60_000 },
    async () => {
      const { code, out, ms } = await runPy(["--smoke", "--peers", "require"], 50_000);
      expect(out.split("\n")[0]).toMatch(/^machine: .*torch absent/);
      expect(out).toContain("PyTorch peers: required but missing torch");
      expect(out).not.toContain("== parity");
      expect(code).toBe(2);
      expect(ms).toBeLessThan(20_000);
    },
  );
});
