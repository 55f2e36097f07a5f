import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

// WGSL kernels (lib/gpu) are imported as text, as Node (lib/gpu/node/wgsl-hooks.mjs) and the studio's bundler do.
const wgslAsText: Plugin = {
  name: "wgsl-as-text",
  transform(code, id) {
    return id.endsWith(".wgsl") ? { code: `export default ${JSON.stringify(code)};`, map: null } : null;
  },
};

export default defineConfig({
  plugins: [wgslAsText],
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["{lib,cli,workers,app,components,bench,scripts}/**/*.test.ts"],
    // Booting PGlite takes seconds on an empty folder; sandbox and render tests spawn processes.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: parallel test files that each start Chromium or a Postgres cluster would fight.
    fileParallelism: false,
    // No test reaches the real Hugging Face hub or reads a developer's own cache: frontend runs
    // without an embedder flag fall back to default-v2 as on an offline machine. Hub tests set
    // their own cache and endpoint (a test double).
    // CLIP graphs built from test checkpoints go to a scratch folder of their own.
    env: {
      HF_HUB_OFFLINE: "1",
      HF_HUB_CACHE: path.join(os.tmpdir(), "colbench-tests-empty-hf-cache"),
      HF_TOKEN: "",
      COLBENCH_ONNX_CACHE: path.join(os.tmpdir(), "colbench-tests-onnx-graphs"),
      // New PGlite folders are copied from a cluster image (lib/db/cluster-image.ts) kept apart from
      // the developer's own cache; built by the first test that needs one.
      COLBENCH_PGLITE_IMAGES: path.join(os.tmpdir(), "colbench-tests-pglite-images"),
    },
  },
});
