import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EMBEDDER_ID, DefaultEmbedder } from "./embedders/default";
import { FrontendScorer, renderTrouble } from "./scorer";
import { defaultChromium } from "./render";

const chromium = defaultChromium();
const TW = '<link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet">';
const TARGET = `<html>${TW}<body><header class="bg-red-600 text-white p-8 text-4xl">Shop</header><main class="p-8 grid grid-cols-2 gap-4"><div class="bg-gray-200 h-40"></div><div class="bg-gray-200 h-40"></div></main></body></html>`;

describe.skipIf(!existsSync(chromium))("FrontendScorer", () => {
  let scorer: FrontendScorer;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = mkdtempSync(path.join(os.tmpdir(), "colbench-frontend-"));
    scorer = await FrontendScorer.start({ embedder: new DefaultEmbedder(), renderOptions: { cache: cacheDir } });
  });
  afterAll(async () => {
    await scorer?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("scores the target itself 1, a lesser answer less, no answer least", async () => {
    const same = await scorer.score(TARGET, { kind: "html", html: TARGET });
    expect(same.reward).toBeCloseTo(1, 6);
    expect(same.answerRender).toBe(same.targetRender);
    expect(same).toMatchObject({ embedder: DEFAULT_EMBEDDER_ID, answerStatus: "ok", targetStatus: "ok" });
    const close = await scorer.score(TARGET, { kind: "html", html: TARGET.replace("bg-red-600", "bg-red-700") });
    const none = await scorer.score(TARGET, { kind: "none", reason: "no answer" });
    expect(close.reward).toBeLessThan(1);
    expect(none.reward).toBeLessThan(close.reward);
    expect(none).toMatchObject({ answerRender: "fallback", answerStatus: "none" });
  });

  it("keeps embeddings beside the cached renders", async () => {
    const r = await scorer.score(TARGET, { kind: "html", html: TARGET });
    const files = readdirSync(path.join(cacheDir, r.targetRender.slice(0, 2)));
    expect(files).toContain(`${r.targetRender}.${DEFAULT_EMBEDDER_ID}.f32`);
  });
});

describe("what a score keeps of a render that was not clean", () => {
  it("says how the render ended and what a first attempt met", () => {
    expect(renderTrouble({ status: "ok" })).toBeUndefined();
    expect(
      renderTrouble({
        status: "failed",
        error: "capturing the page took longer than 15000 ms",
        retried: { status: "failed", error: "the page used 2100 MiB, more than its 2048 MiB" },
      }),
    ).toBe(
      "first attempt failed: the page used 2100 MiB, more than its 2048 MiB; rendered again alone in a fresh browser; then failed: capturing the page took longer than 15000 ms",
    );
    expect(renderTrouble({ status: "ok", retried: { status: "timeout" } })).toBe(
      "first attempt timeout; rendered again alone in a fresh browser",
    );
  });
});
