import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { storeFor } from "../store";
import { paceOf } from "./pace";

// The ETA a run shows, checked against a run of known pace: 100 episodes played 8 at a time, each
// taking 20-40 s (seeded), replayed into the database as they would stand at the moments 10%, 25%,
// 50% and 75% of them are done. The ETA then must be within 30% of the time really left.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-pace-"));
let db: Database | undefined;
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const EPISODES = 100;
const AT_ONCE = 8;

/** Start and end (ms from the run's start) of each episode when AT_ONCE slots take them in turn. */
function schedule(): Array<{ start: number; end: number }> {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const free = Array.from({ length: AT_ONCE }, () => 0);
  return Array.from({ length: EPISODES }, () => {
    const slot = free.indexOf(Math.min(...free));
    const start = free[slot]!;
    const end = start + 20_000 + random() * 20_000;
    free[slot] = end;
    return { start, end };
  });
}

describe("the ETA of a run of known pace", () => {
  it("is within 30% of the real time left at 10%, 25%, 50% and 75% done", async () => {
    db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    const store = storeFor(db.prisma);
    await store.tasks.import({ file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: "backend", name: "samples" });
    const taskIds = (await store.tasks.list({ benchmark: "backend", pageSize: 200 })).items.map((t) => t.id);
    const bestOf = Math.ceil(EPISODES / taskIds.length);
    const run = await store.runs.insert({ name: "paced", benchmark: "backend", config: { benchmark: "backend", selector: "all", taskIds, bestOf } as never });
    await store.episodes.ensure(run.id, taskIds, bestOf);
    const ids = (await store.episodes.unfinished(run.id)).map((e) => e.id);
    // Only the first EPISODES belong to the replayed run; the rest are removed.
    await db.prisma.episode.deleteMany({ where: { id: { in: ids.slice(EPISODES) } } });
    const plan = schedule();
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const lastEnd = Math.max(...plan.map((p) => p.end));
    const ends = plan.map((p) => p.end).sort((a, b) => a - b);

    const seen: string[] = [];
    for (const share of [0.1, 0.25, 0.5, 0.75]) {
      const now = ends[Math.round(EPISODES * share) - 1]! + 1000;
      for (const [i, p] of plan.entries()) {
        const state = p.end <= now ? "done" : p.start <= now ? "running" : "pending";
        await db.prisma.episode.update({
          where: { id: ids[i]! },
          data: {
            status: state,
            startedAt: state === "pending" ? null : new Date(t0 + p.start),
            endedAt: state === "done" ? new Date(t0 + p.end) : null,
            leaseUntil: state === "running" ? new Date(t0 + now + 60_000) : null,
            claimedBy: state === "running" ? "player" : null,
            reward: state === "done" ? 1 : null,
          },
        });
      }
      const pace = paceOf(await store.workers.paceFigures(run.id, new Date(t0 + now)));
      const real = lastEnd - now;
      expect(pace.state).toBe("playing");
      const error = (pace.etaMs! - real) / real;
      seen.push(`${share * 100}%: ETA ${(pace.etaMs! / 1000).toFixed(0)} s, really ${(real / 1000).toFixed(0)} s (${(error * 100).toFixed(0)}%)`);
      expect(Math.abs(error), seen.join("; ")).toBeLessThanOrEqual(0.3);
    }
  }, 60_000);

  it("a run just started shows 'starting', not a pace from nothing", async () => {
    expect(paceOf({ remaining: 100, playing: 8, ended: 0, meanEpisodeMs: null }).state).toBe("starting");
  });
});
