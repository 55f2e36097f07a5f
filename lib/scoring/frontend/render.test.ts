import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng, type RgbaImage } from "./png";
import { defaultChromium, RenderPool } from "./render";
import { settingsFor } from "./render-protocol";

// The render pool against real Chromium: styling and placeholder images offline, the cache, and
// hostile pages, each of which must end within its deadline and leave the pool able to render a
// normal page correctly afterwards.

const chromium = defaultChromium();

function pixel(img: RgbaImage, x: number, y: number): [number, number, number] {
  const o = (y * img.width + x) * 4;
  return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
}

const TAILWIND = '<link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet">';
// bg-green-500 in Tailwind 2 is rgb(16, 185, 129); the header fills the top 120 px.
const NORMAL = `<html>${TAILWIND}<body class="bg-gray-100"><header class="bg-green-500 h-32 text-white p-4"><h1 class="text-3xl">Hello</h1></header>
<img src="https://picsum.photos/id/10/400/300" class="m-4"></body></html>`;

async function expectNormalPage(pool: RenderPool): Promise<void> {
  const r = await pool.render(NORMAL, { cache: false });
  expect(r.status).toBe("ok");
  const img = decodePng(r.png);
  expect(img.width).toBe(1366);
  expect(pixel(img, 640, 100)).toEqual([16, 185, 129]);
  // The placeholder photo (400x300 below the header, at 16 px margin) is drawn, not left blank.
  const photo = pixel(img, 216, 128 + 16 + 150);
  expect(photo).not.toEqual([243, 244, 246]);
}

describe.skipIf(!existsSync(chromium))(`render pool (${chromium})`, () => {
  let pool: RenderPool;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = mkdtempSync(path.join(os.tmpdir(), "colbench-renders-"));
    pool = await RenderPool.start({ cache: cacheDir, deadlineMs: 3_000, captureTimeoutMs: 10_000 });
  });

  afterAll(async () => {
    await pool?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("renders a Tailwind page with its placeholder image offline", async () => {
    await expectNormalPage(pool);
  });

  it("captures the whole page, taller than the viewport, with 100vh meaning the viewport, beside Firefox's scrollbar", async () => {
    const r = await pool.render(
      `<html><body style="margin:0"><div style="height:100vh;background:#f00"></div><div style="height:1500px;background:#00f"></div></body></html>`,
      {
        cache: false,
      },
    );
    const img = decodePng(r.png);
    // paper: a 1366x682 window; a page taller than it is laid out 12 px narrower, as Firefox lays it out beside its scrollbar.
    expect([img.width, img.height]).toEqual([1354, 682 + 1500]);
    expect(pixel(img, 10, 681)).toEqual([255, 0, 0]);
    expect(pixel(img, 10, 682)).toEqual([0, 0, 255]);
    expect(r.profile).toEqual({ name: "paper", browser: "chromium", placeholders: "generated" });
  });

  it("captures a short quirks-mode page to its content's height, a standards-mode one to the window's (Firefox's documentElement extent)", async () => {
    const body = `<body><div style="height:120px;background:#0f0"></div></body></html>`;
    const quirks = decodePng((await pool.render(`<html>${body}`, { cache: false })).png);
    // body's 8 px margins above and below: what Firefox reports as documentElement.scrollHeight in quirks mode.
    expect([quirks.width, quirks.height]).toEqual([1366, 136]);
    const standards = decodePng((await pool.render(`<!DOCTYPE html><html>${body}`, { cache: false })).png);
    expect([standards.width, standards.height]).toEqual([1366, 682]);
    // A flex body too (Chromium keeps it stretched however its height is put in words): its item's 132 px.
    const flex = decodePng(
      (
        await pool.render(
          `<html><body style="display:flex;margin:0"><div style="padding:16px;background:#00f"><p style="margin:0;height:100px">x</p></div></body></html>`,
          { cache: false },
        )
      ).png,
    );
    expect(flex.height).toBe(132);
    // A height the page sets itself is kept: a quirks page whose body is 100% tall fills the window.
    const full = decodePng(
      (await pool.render(`<html><body style="height:100%;margin:0"><p>x</p></body></html>`, { cache: false })).png,
    );
    expect(full.height).toBe(682);
  });

  it("keeps the studio's earlier geometry by name (studio-1280: 1280x800, at least the window), under its own cache key", async () => {
    const html = `<html><body><div style="height:120px;background:#0f0"></div></body></html>`;
    const r = await pool.render(html, { settings: settingsFor("studio-1280") });
    const img = decodePng(r.png);
    expect([img.width, img.height]).toEqual([1280, 800]);
    expect(r.profile.name).toBe("studio-1280");
    expect(r.id).not.toBe(pool.idFor(html));
    expect(pool.idFor(html, settingsFor("studio-1280"))).toBe(r.id);
  });

  it("serves the same result from its content-addressed cache", async () => {
    const first = await pool.render(NORMAL);
    const second = await pool.render(NORMAL);
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.id).toBe(first.id);
    expect(second.id).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(path.join(cacheDir, first.id.slice(0, 2), `${first.id}.png`))).toBe(true);
    expect(existsSync(path.join(cacheDir, first.id.slice(0, 2), `${first.id}.json`))).toBe(true);
    expect(second.png.equals(first.png)).toBe(true);
    expect(pool.idFor(`${NORMAL} `)).not.toBe(first.id);
  });

  it("cuts off a script that never finishes", async () => {
    const r = await pool.render(
      `<html><body><h1>before</h1><script>while (true) {}</script><p>after</p></body></html>`,
      { cache: false },
    );
    expect(r.status).toBe("timeout");
    expect(r.png.length).toBeGreaterThan(0);
    await expectNormalPage(pool);
  });

  it("cuts off a loop started from a timer after load", async () => {
    const r = await pool.render(
      `<html><body><h1>hi</h1><script>setTimeout(() => { for (;;) {} }, 0)</script></body></html>`,
      { cache: false },
    );
    expect(["ok", "timeout"]).toContain(r.status);
    await expectNormalPage(pool);
  });

  it("refuses and counts requests to the outside", async () => {
    const r = await pool.render(
      `<html><body><p>x</p><img src="https://example.com/a.png"><script>fetch("https://example.com/data").catch(() => {}); fetch("http://10.0.0.1/x").catch(() => {});</script></body></html>`,
      { cache: false },
    );
    expect(r.status).toBe("ok");
    expect(r.aborted).toBeGreaterThanOrEqual(2);
    expect(r.blocked.some((u) => u.startsWith("https://example.com/"))).toBe(true);
  });

  it("refuses 50 MB of HTML outright with the fallback image", async () => {
    const row = `<div class="p-2">${"x".repeat(90)}</div>\n`;
    const html = `<html><body>${row.repeat(Math.ceil((50 * 1024 * 1024) / row.length))}</body></html>`;
    const r = await pool.render(html, { cache: false });
    expect(r.status).toBe("failed");
    const img = decodePng(r.png);
    expect([img.width, img.height]).toEqual([224, 224]);
    await expectNormalPage(pool);
  });

  it("renders or cuts off 50 MB of DOM built by a script", async () => {
    const r = await pool.render(
      `<html><body><script>const row = "<div class='p-2'>" + "x".repeat(90) + "</div>"; for (let i = 0; i < 500000; i++) document.body.insertAdjacentHTML("beforeend", row);</script></body></html>`,
      { cache: false },
    );
    expect(["ok", "timeout", "failed"]).toContain(r.status);
    expect(decodePng(r.png).height).toBeLessThanOrEqual(pool.settings.maxHeight);
    await expectNormalPage(pool);
  });

  it("stays on the page when it navigates itself away", async () => {
    const r = await pool.render(
      `<html><body style="margin:0;background:#0f0"><script>location.href = "https://example.com/";</script></body></html>`,
      { cache: false },
    );
    expect(r.status).toBe("ok");
    expect(r.aborted).toBeGreaterThanOrEqual(1);
    expect(pixel(decodePng(r.png), 10, 10)).toEqual([0, 255, 0]);
    await expectNormalPage(pool);
  });

  it("survives window.open loops and dialogs", async () => {
    const r = await pool.render(
      `<html><body><h1>popups</h1><script>for (let i = 0; i < 200; i++) window.open("https://example.com/" + i); alert("hi"); setInterval(() => window.open("about:blank"), 1);</script></body></html>`,
      { cache: false },
    );
    expect(["ok", "timeout"]).toContain(r.status);
    await expectNormalPage(pool);
  });

  it("restarts a worker that died, retrying the pages it had", async () => {
    const pid = pool.workerPid!;
    const pending = pool.render(NORMAL.replace("Hello", "Retried"), { cache: false });
    process.kill(pid, "SIGKILL");
    const r = await pending;
    expect(r.status).toBe("ok");
    expect(pool.workerPid).not.toBe(pid);
    await expectNormalPage(pool);
  });
});
