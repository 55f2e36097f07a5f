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
/** Test files that run with nothing beside them (see `projects` below); all of them are among TESTS. */
const ALONE = [
  "lib/scoring/**/*.test.ts",
  "workers/render/**/*.test.ts",
  "lib/benchmarks/frontend/score-*.test.ts",
  "lib/runs/frontend-run.test.ts",
  "lib/gpu/score-episode.test.ts",
  "lib/gpu/testing/chromium.test.ts",
  "bench/gpu/*.test.ts",
  "cli/faults.test.ts",
  "cli/distributed.test.ts",
  "cli/run-crash.test.ts",
  // A failing critic must be reported within 10 s of the step's start.
  "cli/sweet.test.ts",
];

export default defineConfig({
  plugins: [wgslAsText],
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
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
    // (Each project names its files: `extends` would add a root `include` to a project's own.)
    // Two groups, one after the other: most files two at a time (one per core), then, one at a time,
    // those whose pass depends on a wall-clock limit being met, so that a busy neighbour cannot make
    // it fail: a browser's render deadlines, the paper's 1 s limit per test call and the sandbox's
    // own, leases that lapse and workers paused or killed on a schedule.
    projects: [
      {
        extends: true,
        test: { name: "paired", include: TESTS, exclude: ALONE, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: "alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
