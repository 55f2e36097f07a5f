import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The studio runs these checks in its server process (the System page): a synchronous child process
// there froze every request for seconds. With the synchronous calls made to throw, the whole report
// must still come back, and none of them may have been tried.

const sync = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock("node:child_process", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:child_process")>();
  const refuse =
    (name: string) =>
    (...args: unknown[]) => {
      sync.calls.push(`${name} ${String(args[0])}`);
      throw new Error(`${name} blocks the event loop`);
    };
  return {
    ...real,
    default: {
      ...real,
      spawnSync: refuse("spawnSync"),
      execSync: refuse("execSync"),
      execFileSync: refuse("execFileSync"),
    },
    spawnSync: refuse("spawnSync"),
    execSync: refuse("execSync"),
    execFileSync: refuse("execFileSync"),
  };
});

const { runDoctor } = await import("./index");

const data = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-doctor-async-"));
afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

describe("runDoctor in the server's process", () => {
  it("runs every check without a synchronous child process", { timeout: 120_000 }, async () => {
    const saved = { data: process.env.COLBENCH_DATA, url: process.env.DATABASE_URL };
    process.env.COLBENCH_DATA = path.join(data, "data");
    delete process.env.DATABASE_URL;
    try {
      const report = await runDoctor({ open: () => Promise.reject(new Error("not opened in this test")) });
      expect(sync.calls).toEqual([]);
      const ids = report.parts.map((p) => p.id);
      for (const id of [
        "node",
        "packages",
        "build",
        "data-folder",
        "chromium",
        "firefox",
        "python",
        "numpy",
        "sandbox",
        "postgresql",
        "database",
        "webgpu",
        "clip",
        "render-cache",
      ])
        expect(ids).toContain(id);
    } finally {
      if (saved.data === undefined) delete process.env.COLBENCH_DATA;
      else process.env.COLBENCH_DATA = saved.data;
      if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
    }
  });
});
