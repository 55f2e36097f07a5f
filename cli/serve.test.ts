import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startStudio, type RunningStudio } from "../e2e/studio";
import { projectRoot } from "../lib/paths";

// The built studio as a process: what survives a clean stop, and what survives kill -9.

const built = fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"));
const port = 3290 + (process.pid % 50);
let dataDir: string | undefined;
let studio: RunningStudio | undefined;
afterAll(async () => {
  await studio?.stop("SIGKILL");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function health(url: string) {
  return (await (await fetch(`${url}/api/health`)).json()) as {
    tasks: { backend: number; frontend: number };
    database: { role: string };
  };
}

describe("colbench serve", () => {
  it("needs a build", () => {
    // `npm test` builds first; running Vitest alone on a fresh clone needs `npm run build`.
    expect(built, "the studio is not built: run `npm run build`").toBe(true);
  });

  it("keeps every row across SIGTERM and kill -9", async () => {
    studio = await startStudio(port);
    dataDir = studio.dataDir;
    const seeded = await health(studio.url);
    expect(seeded.tasks.backend).toBeGreaterThan(0);
    expect(studio.output()).toContain("seeded");

    // A second studio on the same folder never opens it: it is the first one's client.
    const second = await startStudio(port + 1, dataDir);
    try {
      const seen = await health(second.url);
      expect(seen.tasks).toEqual(seeded.tasks);
      expect(seen.database.role).toBe("client");
      expect(second.output()).toMatch(
        new RegExp(`through the socket of process ${studio.process.pid} \\(colbench serve\\)`),
      );
    } finally {
      expect(await second.stop("SIGTERM")).toBe(0);
    }

    expect(await studio.stop("SIGTERM")).toBe(0);
    expect(studio.output()).toContain("closing the database");
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8"))).toMatchObject({ state: "closed" });

    studio = await startStudio(port, dataDir);
    expect(await health(studio.url)).toEqual(seeded);
    expect(studio.output()).not.toContain("seeded");

    await studio.stop("SIGKILL");
    studio = await startStudio(port, dataDir);
    expect(await health(studio.url)).toEqual(seeded);
    expect(await studio.stop("SIGTERM")).toBe(0);
  });

  it("stops cleanly on SIGTERM when nobody reads its output any more", async () => {
    // A harness or terminal that died leaves the studio writing into closed pipes: every write fails
    // (EPIPE). It used to spin a core on logging those failures and never get to its SIGTERM.
    const orphan = await startStudio(port + 2);
    try {
      orphan.process.stdout!.destroy();
      orphan.process.stderr!.destroy();
      const code = await Promise.race([
        orphan.stop("SIGTERM"),
        new Promise<string>((resolve) => setTimeout(() => resolve("still running after 20 s"), 20_000)),
      ]);
      expect(code).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(orphan.dataDir, "db.lock"), "utf8"))).toMatchObject({
        state: "closed",
      });
    } finally {
      await orphan.stop("SIGKILL");
      fs.rmSync(orphan.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
