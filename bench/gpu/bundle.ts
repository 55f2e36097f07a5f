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
      banner: { js: 'import { createRequire as __colbenchRequire } from "node:module"; const require = __colbenchRequire(import.meta.url);' },
      logLevel: "error",
    });
    written.push({ file, bytes: fs.statSync(file).size });
  }
  return written;
}
