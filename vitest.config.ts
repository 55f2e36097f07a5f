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

const TESTS = ["{lib,cli,workers,app,components,bench,scripts}/**/*.test.ts"];
const ALONE = [
  "cli/faults.test.ts",
  "cli/distributed.test.ts",
  "lib/scoring/frontend/render-neighbours.test.ts",
  "lib/scoring/frontend/render-hostile-neighbours.test.ts",
];

export default defineConfig({
  plugins: [wgslAsText],
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    // Two files at a time: most spend a third of their time waiting (child processes, servers,
    // browsers, a database's fsync), and each has its own data folder, database and ports. The
    // files whose point is timing stay alone, after the rest: worker leases of seconds run out
    // and SIGSTOP outlives them on a clock (faults, distributed), and the render neighbours tests
    // show that a page is not slowed or failed by the pages beside it, which another file's load
    // beside them would confuse.
    projects: [
      { extends: true, test: { name: "parallel", include: TESTS, exclude: ALONE, maxWorkers: 2 } },
      {
        extends: true,
        test: { name: "alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
    // Booting PGlite takes seconds on an empty folder; sandbox and render tests spawn processes.
    testTimeout: 60_000,
    hookTimeout: 120_000,
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
