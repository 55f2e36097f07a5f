import fs from "node:fs";
import { BASE_CHROMIUM_FLAGS, DEFAULT_CHROMIUM } from "../workers/render/browser";
import { WEBGPU_CHROMIUM_FLAGS } from "../lib/gpu/chromium-flags";

/** Debian's Chromium (the setup script installs it); Playwright's own browser download is not used. */
export function chromiumPath(): string {
  const candidates = [
    process.env.COLBENCH_CHROMIUM,
    DEFAULT_CHROMIUM,
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found)
    throw new Error("no Chromium found: run `npm run setup` (installs Debian's chromium) or set COLBENCH_CHROMIUM");
  return found;
}

// The same offline flags the render pool uses: without them Chromium keeps dialling Google.
export const chromiumArgs = BASE_CHROMIUM_FLAGS;

/** Chromium with a WebGPU adapter on a machine without a GPU (SwiftShader), for specs that need one. */
export const webgpuChromiumArgs = [...BASE_CHROMIUM_FLAGS, ...WEBGPU_CHROMIUM_FLAGS];
