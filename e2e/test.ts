import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base } from "@playwright/test";
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
export const test = base.extend<object, { sharedStudio: RunningStudio }>({
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
});
