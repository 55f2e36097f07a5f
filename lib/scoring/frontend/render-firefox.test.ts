import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedColbenchDir } from "../../paths";
import { tailwindDistDir } from "../../../workers/render/tailwind";
import { Marionette } from "../testing/marionette";
import { defaultFirefox, detectFirefox, requireEngine } from "./browsers";
import { decodePng, pngSize } from "./png";
import { RenderPool } from "./render";
import { settingsFor } from "./render-protocol";

// Firefox ESR as the render pool's second engine (WebDriver BiDi), against Firefox driven as the
// published scorer drives it (Marionette's full screenshot of the page's file), and the official
// first target's size in both engines. The test run installs Firefox (scripts/test.sh asks the
// setup for it); elsewhere these skip, saying so.

const firefox = defaultFirefox();
const FRONTEND = path.join(sharedColbenchDir(), "frontend_test.jsonl");
const TAILWIND_CDN = "https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css";
const haveFirefox = existsSync(firefox);

describe("a missing engine", () => {
  it("fails with the instruction to add it", async () => {
    expect(() => requireEngine("firefox", "/nonexistent/firefox-esr")).toThrow(/scripts\/setup\.sh --with-firefox/);
    await expect(RenderPool.start({ browser: "firefox", executablePath: "/nonexistent/firefox-esr" })).rejects.toThrow(
      /firefox is not installed .*--with-firefox/,
    );
  });
});

describe.skipIf(!haveFirefox)(
  haveFirefox
    ? `render pool in Firefox (${firefox})`
    : `render pool in Firefox (skipped: no ${firefox}; scripts/setup.sh --with-firefox)`,
  () => {
    let pool: RenderPool;
    beforeAll(async () => {
      pool = await RenderPool.start({ browser: "firefox", cache: false, deadlineMs: 4_000, concurrency: 2 });
    }, 60_000);
    afterAll(async () => pool?.close());

    it("is detected, with its version, for colbench doctor", () => {
      const status = detectFirefox();
      expect(status).toMatchObject({ browser: "firefox", found: true, path: firefox });
      expect(status.version).toMatch(/Firefox \d+/);
      expect(pool.browserVersion).toMatch(/^firefox\/\d+\./);
      expect(pool.profile).toEqual({ name: "paper", browser: "firefox", placeholders: "generated" });
    });

    it("renders Tailwind and placeholders offline, short quirks pages to their content's height", async () => {
      const r = await pool.render(
        `<html><link href="${TAILWIND_CDN}" rel="stylesheet"><body><header class="bg-green-500 h-32"></header><img src="https://picsum.photos/id/48/400/300"></body></html>`,
      );
      expect(r.status).toBe("ok");
      const img = decodePng(r.png);
      // Tailwind's preflight takes the body's margin away; a line holding only an image has no strut in quirks
      // mode: the 128 px header and the 300 px picture, not padded to the 682 px window.
      expect([img.width, img.height]).toEqual([1366, 128 + 300]);
      const at = (x: number, y: number) =>
        Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));
      expect(at(600, 60)).toEqual([16, 185, 129]);
      expect(at(208, 8 + 128 + 150)).not.toEqual([255, 255, 255]);
    });

    it("keeps studio-1280 by name: a short page is captured to the whole 1280x800 window", async () => {
      const r = await pool.render(`<html><body><p>short</p></body></html>`, { settings: settingsFor("studio-1280") });
      expect(r.profile.name).toBe("studio-1280");
      expect(pngSize(r.png)).toEqual({ width: 1280, height: 800 });
    });

    it("stays on a page that navigates away, ends a script that never yields, and renders normally after", async () => {
      const away = await pool.render(
        `<html><body style="margin:0;background:#0f0"><p>x</p><script>location.href = "https://example.com/";</script></body></html>`,
      );
      expect(away.status).toBe("ok");
      expect(away.aborted).toBeGreaterThanOrEqual(1);
      const px = decodePng(away.png).data;
      expect([px[0], px[1], px[2]]).toEqual([0, 255, 0]);
      const loop = await pool.render(`<html><body><h1>before</h1><script>while (true) {}</script></body></html>`);
      expect(["ok", "timeout", "failed"]).toContain(loop.status);
      const after = await pool.render(
        `<html><body style="margin:0"><div style="height:50px;background:#00f"></div></body></html>`,
      );
      expect(after.status).toBe("ok");
      expect(pngSize(after.png)).toEqual({ width: 1366, height: 50 });
    }, 60_000);

    const shared = existsSync(FRONTEND);
    describe.skipIf(!shared)(shared ? "on ColBench targets" : `on ColBench targets (skipped: no ${FRONTEND})`, () => {
      const targets = shared
        ? readFileSync(FRONTEND, "utf8")
            .split("\n")
            .filter((l) => l.trim())
            .slice(0, 14)
            .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth)
        : [];

      it("the first official target is 1366x308 in Firefox and in Chromium (the paper profile)", async () => {
        const chromium = await RenderPool.start({ cache: false });
        try {
          const [ff, cr] = await Promise.all([pool.render(targets[0]!), chromium.render(targets[0]!)]);
          expect(pngSize(ff.png)).toEqual({ width: 1366, height: 308 });
          expect(pngSize(cr.png)).toEqual({ width: 1366, height: 308 });
        } finally {
          await chromium.close();
        }
      }, 60_000);

      it("gives Marionette's full screenshot of the page's file, pixel for pixel (targets 0, 3, 4, 13: no images)", async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), "colbench-marionette-pages-"));
        const marionette = await Marionette.launch(firefox);
        try {
          for (const i of [0, 3, 4, 13]) {
            const file = path.join(dir, `${i}.html`);
            // The published scorer's Firefox fetches Tailwind from the CDN; here it reads the same file from the package.
            writeFileSync(
              file,
              targets[i]!.replace(TAILWIND_CDN, `file://${path.join(tailwindDistDir(), "tailwind.min.css")}`),
            );
            const [reference, ours] = await Promise.all([marionette.fullScreenshot(file), pool.render(targets[i]!)]);
            const a = decodePng(reference);
            const b = decodePng(ours.png);
            expect([b.width, b.height], `target ${i}`).toEqual([a.width, a.height]);
            let differing = 0;
            for (let k = 0; k < a.data.length; k += 4)
              if (a.data[k] !== b.data[k] || a.data[k + 1] !== b.data[k + 1] || a.data[k + 2] !== b.data[k + 2])
                differing++;
            expect(differing, `target ${i}: pixels that differ`).toBe(0);
          }
        } finally {
          await marionette.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }, 120_000);
    });
  },
);
