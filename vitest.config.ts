import { defineConfig } from "vitest/config";
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
    include: ["{lib,cli,workers,app,components}/**/*.test.ts"],
    // Booting PGlite takes seconds on an empty folder; sandbox and render tests spawn processes.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: parallel test files that each start Chromium or a Postgres cluster would fight.
    fileParallelism: false,
  },
});
