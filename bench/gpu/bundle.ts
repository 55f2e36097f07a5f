import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// The GPU bench's TypeScript as single .mjs files that Node alone runs (a lent GPU machine has no
// node_modules): every import inlined, the WGSL kernels as text, only `webgpu` (dawn.node) left out;
// bench/gpu/run.py lays it out beside them as node_modules/webgpu.

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Entry point → bundle name. */
export const GPU_BENCH_ENTRIES: Record<string, string> = {
  "parity.mjs": "bench/gpu/parity.ts",
  "webgpu-logprobs.mjs": "bench/webgpu-logprobs.ts",
  "clip-gpu.mjs": "bench/gpu/clip-gpu.ts",
  "generate.mjs": "bench/generate.ts",
};

/** Writes the bundles into `outDir`; returns their paths and sizes. */
export async function bundleGpuBench(outDir: string): Promise<Array<{ file: string; bytes: number }>> {
  fs.mkdirSync(outDir, { recursive: true });
  const written: Array<{ file: string; bytes: number }> = [];
  for (const [name, entry] of Object.entries(GPU_BENCH_ENTRIES)) {
    const file = path.join(outDir, name);
    await build({
      entryPoints: [path.join(ROOT, entry)],
      outfile: file,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      loader: { ".wgsl": "text" },
      external: ["webgpu"],
      // CommonJS dependencies inlined in an ES module still call require() for Node's built-ins.
      banner: {
        js: 'import { createRequire as __colbenchRequire } from "node:module"; const require = __colbenchRequire(import.meta.url);',
      },
      logLevel: "error",
    });
    written.push({ file, bytes: fs.statSync(file).size });
  }
  return written;
}

/**
 * What `bench/gpu/run.py --smoke` needs on this machine, in seconds: the bundles, and links to this
 * Node and to the repository's `webgpu` (index.js, package.json, dawn.node) where the GPU machine's
 * carry has them compressed. No Vulkan debs (the software adapter needs none) and no screenshots
 * (the smoke test's CLIP stage embeds synthetic images).
 */
export async function layOutSmokeCarry(outDir: string): Promise<void> {
  await bundleGpuBench(path.join(outDir, "bundle"));
  const link = (target: string, at: string) => {
    fs.rmSync(at, { force: true });
    fs.symlinkSync(target, at);
  };
  link(process.execPath, path.join(outDir, "node"));
  const webgpu = path.join(ROOT, "node_modules", "webgpu");
  fs.mkdirSync(path.join(outDir, "webgpu"), { recursive: true });
  for (const f of ["index.js", "package.json"]) link(path.join(webgpu, f), path.join(outDir, "webgpu", f));
  link(path.join(webgpu, "dist", "linux-x64", "dawn.node"), path.join(outDir, "webgpu", "dawn.node"));
}
