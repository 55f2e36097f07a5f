import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base, type Browser, type Page } from "@playwright/test";
import { chromiumPath, webgpuChromiumArgs } from "./chromium";
import { e2ePort } from "./ports";
import { startStudio, type RunningStudio } from "./studio";

export * from "@playwright/test";

/**
 * Playwright's `test`, with `baseURL` at this worker's own studio: a copy of the data folder
 * e2e/global-setup.ts prepared (sample tasks, runs played against the scripted model server), served on
 * the worker's port. Specs in two workers at once never see each other's writes, and a spec sees the same
 * starting data whichever worker runs it. The studio is stopped with SIGTERM when the worker ends and must
 * exit cleanly (a clean PGlite close).
 */
export const test = base.extend<{ webgpuPage: Page }, { sharedStudio: RunningStudio; webgpuBrowser: Browser }>({
  sharedStudio: [
    async ({}, use) => {
      const prepared = process.env.COLBENCH_E2E_DATA;
      if (!prepared) throw new Error("COLBENCH_E2E_DATA is not set: e2e/global-setup.ts prepares it");
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-worker-"));
      fs.cpSync(prepared, dataDir, { recursive: true });
      const studio = await startStudio(e2ePort(0), dataDir);
      await use(studio);
      const code = await studio.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`studio exited with ${code} on SIGTERM:\n${studio.output()}`);
    },
    // A studio's start (up to 90 s on a loaded machine) is not the first test's time.
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ sharedStudio }, use) => use(sharedStudio.url),
  // Chromium with a WebGPU adapter (SwiftShader), beside the worker's usual browser rather than in place of
  // it: a spec that swapped the launch options would need workers of its own, which Playwright starts only
  // after every other spec has run, leaving these slowest specs to the end of the run.
  webgpuBrowser: [
    async ({ playwright }, use) => {
      const browser = await playwright.chromium.launch({ executablePath: chromiumPath(), args: webgpuChromiumArgs });
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
  webgpuPage: async ({ webgpuBrowser, viewport }, use) => {
    const context = await webgpuBrowser.newContext({ viewport });
    await use(await context.newPage());
    await context.close();
  },
});
