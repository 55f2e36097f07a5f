import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng } from "../../lib/scoring/frontend/png";
import { DEFAULT_RENDER_SETTINGS } from "../../lib/scoring/frontend/render-protocol";
import { defaultChromium } from "../../lib/scoring/frontend/render";
import { ChromiumPool } from "./pool";

// The load event does not wait for CSS background images, so a capture must: pictures answered
// late (as on a loaded machine, here on purpose) still appear in every render.

const chromium = defaultChromium();
const LATE_MS = 400;
/** Two lanes, pictures answered late. */
const LATE_PICTURES = {
  executablePath: chromium,
  concurrency: 2,
  subsetTailwind: true,
  memoizeImages: false,
  captureTimeoutMs: 15_000,
  delayImagesMs: LATE_MS,
};

describe.skipIf(!existsSync(chromium))("a slot's capture", () => {
  let pool: ChromiumPool;
  beforeAll(async () => {
    pool = await ChromiumPool.start(LATE_PICTURES);
  });
  afterAll(async () => {
    await pool?.close();
  });

  const pagesWithCssPictures = () =>
    [1, 2, 3, 4].map(
      (id) =>
        `<html><body style="margin:0"><div style="width:640px;height:400px;background-color:#000;background-image:url('https://picsum.photos/id/${id}/640/400')"></div>` +
        `<p style="background:url(https://picsum.photos/id/9/300/20) no-repeat;height:20px"></p></body></html>`,
    );
  const expectPictures = (results: { status: string; png: Buffer }[]) => {
    for (const r of results) {
      expect(r.status).toBe("ok");
      const img = decodePng(r.png);
      const at = (x: number, y: number) =>
        Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));
      // The placeholder photos are gradients of colours, never the black behind them.
      expect(at(320, 200)).not.toEqual([0, 0, 0]);
      expect(at(150, 425)).not.toEqual([255, 255, 255]);
    }
  };

  it("waits for background images that arrive after the load event", async () => {
    const pages = pagesWithCssPictures();
    expectPictures(await Promise.all(pages.map((html) => pool.render(html, DEFAULT_RENDER_SETTINGS, 10_000))));
  });

  it("renders a page again, waiting, when it asks for a picture after its load event unwatched", async () => {
    // As if late-requests.ts missed a way to ask: these pages are not watched for late requests.
    const unwatched = await ChromiumPool.start({ ...LATE_PICTURES, mayRequestAfterLoad: () => false });
    try {
      const pages = pagesWithCssPictures();
      expectPictures(await Promise.all(pages.map((html) => unwatched.render(html, DEFAULT_RENDER_SETTINGS, 10_000))));
    } finally {
      await unwatched.close();
    }
  });
});
