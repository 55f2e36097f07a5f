import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { dataDir } from "../../paths";
import type { RenderSettings, RenderStatus, RenderVerification } from "./render-protocol";
import { RENDERER_REVISION } from "./render-protocol";
import { pngSize } from "./png";
import type { RenderProfile } from "../../colbench/render-profile";

// Renders are content-addressed: the id is the sha256 of the HTML and the JSON of everything
// else that decides the pixels (the profile's geometry and placeholders, the engine and its major
// version, and the renderer's revision: what the worker serves pages and how it captures and checks
// them), so the same page is rendered once per machine and settings. Only a render known good is
// kept: "ok" as its worker checked it (RenderVerification, recorded beside it), and a record that
// says otherwise, or comes from another revision, or does not match its picture, is never read.
// Layout: <dir>/ab/abcdef….png beside <dir>/ab/abcdef….json.

/** Where renders live unless a caller names another folder: <data dir>/renders. */
export function defaultRenderDir(): string {
  return path.join(dataDir(), "renders");
}

/** A render id is a sha256 in hex; anything else never reaches the file system. */
export function isRenderId(id: string): boolean {
  return /^[0-9a-f]{64}$/.test(id);
}

export interface RenderKey {
  settings: RenderSettings;
  /** The engine and its major version, e.g. "chromium/156" or "firefox/153": another draws text and images differently. */
  browser: string;
}

export function renderId(html: string, key: RenderKey): string {
  const s = key.settings;
  const settingsJson = JSON.stringify({
    profile: s.profile,
    width: s.width,
    viewportHeight: s.viewportHeight,
    extent: s.extent,
    scrollbar: s.scrollbar,
    maxWidth: s.maxWidth,
    maxHeight: s.maxHeight,
    placeholders: s.placeholders,
    browser: key.browser,
    revision: RENDERER_REVISION,
  });
  return createHash("sha256").update(html).update("\0").update(settingsJson).digest("hex");
}

export interface RenderSidecar {
  id: string;
  width: number;
  height: number;
  status: RenderStatus;
  aborted: number;
  blocked: string[];
  browser: string;
  settings: RenderSettings;
  /** The profile the render was made under (name, engine, placeholders). */
  profile: RenderProfile;
  /** How its worker checked the capture before calling it "ok" (absent in records of revisions before 5, which are not read). */
  verified?: RenderVerification;
}

/** Why a cached render may not be used, or null when it may: only a checked "ok" of this revision whose picture is the one its record describes. */
export function unusableRender(png: Uint8Array, meta: RenderSidecar): string | null {
  if (meta.status !== "ok") return `stored as ${meta.status}`;
  if (!meta.verified) return "stored without the record of how it was verified";
  if (meta.verified.revision !== RENDERER_REVISION)
    return `verified by renderer revision ${meta.verified.revision}, not ${RENDERER_REVISION}`;
  let size: { width: number; height: number };
  try {
    size = pngSize(png);
  } catch {
    return "not a PNG image";
  }
  if (size.width !== meta.width || size.height !== meta.height || size.width === 0 || size.height === 0)
    return `a ${size.width}x${size.height} picture recorded as ${meta.width}x${meta.height}`;
  return null;
}

export class RenderCache {
  constructor(readonly dir: string) {}

  pngPath(id: string): string {
    if (!isRenderId(id)) throw new Error(`not a render id: ${JSON.stringify(id.slice(0, 80))}`);
    return path.join(this.dir, id.slice(0, 2), `${id}.png`);
  }

  /** The render stored under `id`, whatever it is (the studio's image route serves it as stored); see usable() for scoring. */
  async get(id: string): Promise<{ png: Buffer; meta: RenderSidecar } | null> {
    try {
      const [png, meta] = await Promise.all([
        readFile(this.pngPath(id)),
        readFile(this.pngPath(id).replace(/\.png$/, ".json"), "utf8"),
      ]);
      return { png, meta: JSON.parse(meta) as RenderSidecar };
    } catch {
      return null;
    }
  }

  /** The render stored under `id` when it may stand for a fresh one (unusableRender says why not). */
  async usable(id: string): Promise<{ png: Buffer; meta: RenderSidecar } | null> {
    const hit = await this.get(id);
    return hit && hit.meta.id === id && unusableRender(hit.png, hit.meta) === null ? hit : null;
  }

  /** Keeps a render; refuses one that is not known good (unusableRender), which must never be read back as if fresh. */
  async put(png: Uint8Array, meta: RenderSidecar): Promise<void> {
    const why = unusableRender(png, meta);
    if (why) throw new Error(`render ${meta.id} is not kept: ${why}`);
    const file = this.pngPath(meta.id);
    await mkdir(path.dirname(file), { recursive: true });
    // Written under temporary names and renamed, so a reader never sees half a file; the
    // sidecar goes last because get() needs both.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(`${tmp}.png`, png);
    await rename(`${tmp}.png`, file);
    await writeFile(`${tmp}.json`, `${JSON.stringify(meta)}\n`);
    await rename(`${tmp}.json`, file.replace(/\.png$/, ".json"));
  }
}
