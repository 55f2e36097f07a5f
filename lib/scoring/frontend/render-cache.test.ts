import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodePng } from "./png";
import { RenderCache, renderId, unusableRender, type RenderSidecar } from "./render-cache";
import { RENDERER_REVISION, settingsFor } from "./render-protocol";

// The render cache keeps only renders known good, with the record of how each was verified, and
// never hands back one that is not: an entry of another revision (which may be a neighbour's blank
// called "ok", as revision 4 stored them), an unchecked or failed one, or one whose picture is not
// the one its record describes.

const dir = mkdtempSync(path.join(os.tmpdir(), "colbench-render-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = settingsFor("paper");
const png = encodePng({ width: 4, height: 3, data: new Uint8Array(4 * 3 * 4).fill(200) });

function record(html: string, over: Partial<RenderSidecar> = {}): RenderSidecar {
  return {
    id: renderId(html, { settings, browser: "chromium/156" }),
    width: 4,
    height: 3,
    status: "ok",
    aborted: 0,
    blocked: [],
    browser: "Chrome/156.0.1.2",
    settings,
    profile: { name: "paper", browser: "chromium", placeholders: "generated" },
    verified: { revision: RENDERER_REVISION, document: "same", extent: { width: 4, height: 3 }, content: "found" },
    ...over,
  };
}

describe("the render cache", () => {
  const cache = new RenderCache(dir);
  /** Writes an entry as some other code might have, bypassing put(). */
  const plant = (id: string, meta: RenderSidecar) => {
    mkdirSync(path.dirname(cache.pngPath(id)), { recursive: true });
    writeFileSync(cache.pngPath(id), png);
    writeFileSync(cache.pngPath(id).replace(/\.png$/, ".json"), JSON.stringify(meta));
  };

  it("keeps a verified render with its record, and gives it back", async () => {
    const meta = record("<p>good</p>");
    await cache.put(png, meta);
    const hit = await cache.usable(meta.id);
    expect(hit?.meta.verified).toEqual(meta.verified);
    expect(hit?.png.equals(png)).toBe(true);
  });

  it("refuses to keep a render that is not known good", async () => {
    await expect(cache.put(png, record("<p>a</p>", { status: "failed" }))).rejects.toThrow(/stored as failed/);
    await expect(cache.put(png, record("<p>b</p>", { verified: undefined }))).rejects.toThrow(/how it was verified/);
    await expect(cache.put(png, record("<p>c</p>", { width: 1366, height: 8 }))).rejects.toThrow(
      /4x3 picture recorded as 1366x8/,
    );
    expect(unusableRender(Buffer.from("not a png"), record("<p>d</p>"))).toMatch(/not a PNG/);
  });

  it("never hands back an entry of another revision, an unchecked one, or one stored under another id", async () => {
    // What revision 4 wrote: no record of any check.
    const old = record("<p>old</p>", { verified: undefined });
    plant(old.id, old);
    expect(await cache.get(old.id)).not.toBeNull();
    expect(await cache.usable(old.id)).toBeNull();

    const other = record("<p>other</p>", {
      verified: {
        revision: RENDERER_REVISION - 1,
        document: "same",
        extent: { width: 4, height: 3 },
        content: "found",
      },
    });
    plant(other.id, other);
    expect(await cache.usable(other.id)).toBeNull();

    const moved = record("<p>moved</p>");
    const elsewhere = record("<p>elsewhere</p>");
    plant(elsewhere.id, moved);
    expect(await cache.usable(elsewhere.id)).toBeNull();
  });

  it("keys a render by its engine, profile and renderer revision", () => {
    const html = "<p>x</p>";
    const chromium = renderId(html, { settings, browser: "chromium/156" });
    expect(renderId(html, { settings, browser: "firefox/153" })).not.toBe(chromium);
    expect(renderId(html, { settings: settingsFor("studio-1280"), browser: "chromium/156" })).not.toBe(chromium);
    expect(
      renderId(html, { settings: { ...settings, placeholders: "picsum-48:0123456789ab" }, browser: "chromium/156" }),
    ).not.toBe(chromium);
  });
});
