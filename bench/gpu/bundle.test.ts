import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleGpuBench, GPU_BENCH_ENTRIES } from "./bundle";

// The GPU bench's bundles (what bench/gpu/run.py runs on a machine without node_modules) build, and
// one of them runs with nothing beside it but `webgpu`: its smallest parity case on this machine's
// adapter (Mesa's software OpenGL ES in CI).

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..", "..");
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-gpu-bundle-"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.join(ROOT, "node_modules", "webgpu"), path.join(dir, "node_modules", "webgpu"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("bench/gpu bundles", () => {
  it("bundle every entry into one .mjs with the WGSL inlined", async () => {
    const written = await bundleGpuBench(dir);
    expect(written.map((w) => path.basename(w.file)).sort()).toEqual(Object.keys(GPU_BENCH_ENTRIES).sort());
    const parity = fs.readFileSync(path.join(dir, "parity.mjs"), "utf8");
    expect(parity).toContain("@compute");
    expect(parity).not.toMatch(/from ["']\.\.?\//);
  });

  it(
    "run a parity case from the bundle, outside the repository, with only webgpu beside it",
    { timeout: 60_000 },
    async () => {
      const { stdout } = await run(
        process.execPath,
        [path.join(dir, "parity.mjs"), "--root", ROOT, "--only", "kernel rmsnorm 1x37 f32"],
        { cwd: dir },
      );
      expect(stdout).toMatch(/^ok {3}kernel rmsnorm 1x37 f32: max \|Δ\|/m);
      expect(stdout).toContain("parity: 1/1 cases within their limits");
    },
  );

  it("fail when the case asked for does not exist", { timeout: 60_000 }, async () => {
    await expect(
      run(process.execPath, [path.join(dir, "parity.mjs"), "--root", ROOT, "--only", "kernel no such case"], {
        cwd: dir,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('no case is named "kernel no such case"') as unknown });
  });
});
