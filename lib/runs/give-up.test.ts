import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeFor } from "../store";
import { openDatabase, type Database } from "../db/open";
import { importTasks } from "../store/import-tasks";
import { projectRoot } from "../paths";
import { parseServerSpec } from "../colbench/server-spec";
import { describeFailure, failureOf } from "../colbench/failure";
import { backendRuntime } from "../benchmarks/backend/runtime";
import { createRun } from "./create";
import { executeRun } from "./runner";
import { modelServices } from "./services";

// A run whose model server is down for longer than its give-up time: the episode playing when it
// went down waits it out and fails; those claimed after the give-up time fail at once, without a
// reply or a wait of their own. Each one's reason must still say how long the server had been down,
// since when, and that the episode never started.

let db: Database;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-give-up-"));

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "tasks",
  });
});

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on: connections to it are refused at once. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("episodes given up on during an outage", () => {
  it("say how long the server had been down and since when, whether they waited, and that they never started", async () => {
    const url = `http://127.0.0.1:${await deadPort()}/v1`;
    const store = storeFor(db.prisma);
    const run = await createRun(store, {
      benchmark: "backend",
      selector: "all",
      limit: 3,
      bestOf: 1,
      agent: parseServerSpec(`${url}#m`),
      simulator: parseServerSpec(`${url}#m`),
      concurrency: 1,
      name: "down",
    });
    const scorer = { score: async () => ({ reward: 0, details: {} }) };
    const before = Date.now();
    const stats = await executeRun(
      store,
      run.id,
      modelServices(backendRuntime, scorer as never, {}, { giveUpMs: 1500, backoffMs: 5 }),
      { concurrency: 1 },
    );
    expect(stats.counts).toMatchObject({ failed: 3, done: 0 });

    const episodes = await db.prisma.episode.findMany({ where: { runId: run.id }, orderBy: { endedAt: "asc" } });
    const failures = episodes.map((e) => failureOf(e.details)!);
    const lines = failures.map((f) => describeFailure(f));
    const since = new Date(failures[0]!.server!.downSince!);
    expect(since.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // One outage: every episode names the same start.
    for (const f of failures) expect(f.server!.downSince).toBe(since.toISOString());
    for (const line of lines) expect(line).toContain(`since ${since.toISOString().slice(11, 19)} UTC`);
    for (const line of lines) expect(line).toMatch(/the episode was never started$/);
    expect(failures.map((f) => f.moves)).toEqual([0, 0, 0]);

    // The first one waited the give-up time out.
    expect(failures[0]!.server!.elapsedMs).toBeGreaterThanOrEqual(1400);
    // (Seconds as the clock gave them: a loaded machine waits longer than the give-up time, never shorter.)
    expect(lines[0]).toMatch(/was down for \d+\.\d s .*gave up after waiting \d+\.\d s \(\d+ attempts\)/);
    // The later ones came past the give-up time: no wait of their own, yet the outage's length is told.
    for (const [i, f] of failures.entries()) {
      if (i === 0) continue;
      expect(f.server!.downMs).toBeGreaterThanOrEqual(1500);
      expect(f.server!.elapsedMs).toBeLessThan(f.server!.downMs!);
      expect(lines[i]).toMatch(
        /was down for \d+\.\d s \(since .*connect ECONNREFUSED.*\); given up at once, past the give-up time on \/chat\/completions; the episode was never started$/,
      );
      expect(lines[i]).not.toMatch(/after 1 attempt in 0\.0 s/);
    }
  }, 60_000);
});
