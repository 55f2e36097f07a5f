import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodePng } from "./png";
import { RenderPool } from "./render";
import type { RenderSidecar } from "./render-cache";
import { RENDERER_REVISION } from "./render-protocol";

// The render pool's side of "known good": it believes a worker's "ok" only with the worker's account
// of how the capture was checked, keeps only such renders, with that account, and reads back only
// those. A stand-in worker (no browser) answers every page "ok", with or without the account, as the
// page asks.

const dir = mkdtempSync(path.join(os.tmpdir(), "colbench-render-client-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const png = encodePng({ width: 5, height: 2, data: new Uint8Array(5 * 2 * 4).fill(90) });
const workerPath = path.join(dir, "worker.mjs");
writeFileSync(
  workerPath,
  `const png = Buffer.from(${JSON.stringify(png.toString("base64"))}, "base64");
process.on("message", (m) => {
  if (m.type === "close") process.exit(0);
  const verified = m.html.includes("unchecked") ? {} : { verified: { revision: ${RENDERER_REVISION}, document: "same", extent: { width: 5, height: 2 }, content: "found" } };
  process.send({ type: "result", reqId: m.reqId, status: "ok", png, width: 5, height: 2, aborted: 0, blocked: [], ...verified });
});
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready", browserVersion: "Stand-in/1.0" });
`,
);

describe("the render pool's cache of known-good renders", () => {
  it("keeps a checked render with the record of its checks, and reads it back", async () => {
    const cache = path.join(dir, "checked");
    const pool = await RenderPool.start({ cache, workerPath, executablePath: process.execPath });
    try {
      const first = await pool.render("<p>checked</p>");
      expect(first).toMatchObject({
        status: "ok",
        cached: false,
        verified: { revision: RENDERER_REVISION, document: "same" },
      });
      const meta = JSON.parse(
        readFileSync(path.join(cache, first.id.slice(0, 2), `${first.id}.json`), "utf8"),
      ) as RenderSidecar;
      expect(meta.verified).toEqual(first.verified);
      const again = await pool.render("<p>checked</p>");
      expect(again).toMatchObject({ status: "ok", cached: true, verified: first.verified });
    } finally {
      await pool.close();
    }
  });

  it("does not believe an ok that comes without its checks: failed, with the reason, and not kept", async () => {
    const cache = path.join(dir, "unchecked");
    const pool = await RenderPool.start({ cache, workerPath, executablePath: process.execPath });
    try {
      const r = await pool.render("<p>unchecked</p>");
      expect(r.status).toBe("failed");
      expect(r.error).toMatch(/did not say how it checked/);
      expect([r.width, r.height]).toEqual([224, 224]);
      expect(existsSync(path.join(cache, r.id.slice(0, 2), `${r.id}.png`))).toBe(false);
    } finally {
      await pool.close();
    }
  });
});
