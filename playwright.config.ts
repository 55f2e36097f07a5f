import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumPath, chromiumArgs } from "./e2e/chromium";

// Each worker's studio runs on its own port with a copy of the data e2e/global-setup.ts prepares (e2e/test.ts).
// No studio under test reaches the real Hugging Face hub or a developer's own cache (frontend runs
// fall back to default-v2 as offline); a spec that needs the hub starts its own studio on a test double.
process.env.HF_HUB_OFFLINE = "1";
process.env.HF_HUB_CACHE = path.join(os.tmpdir(), "colbench-e2e-empty-hf-cache");
// New PGlite folders come from a cluster image of the tests' own (lib/db/cluster-image.ts), not the developer's cache.
process.env.COLBENCH_PGLITE_IMAGES = path.join(os.tmpdir(), "colbench-tests-pglite-images");
// A model server that cannot be reached fails its episodes after 20 s, not the usual 10 minutes:
// long enough for a seat's page to be seen waiting and for the server to come back meanwhile (the
// breaker's probes are up to 8 s apart; e2e/play.spec.ts).
process.env.COLBENCH_GIVE_UP = "20s";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 60_000,
  // A spec file's tests run in order in one worker; two workers, each with its own studio and ports
  // (e2e/ports.ts), keep both cores busy: one worker left ~58% of them idle (specs wait on studios,
  // model servers and timers).
  fullyParallel: false,
  workers: 2,
  reporter: [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
    viewport: { width: 1280, height: 860 },
    trace: "retain-on-failure",
  },
});
