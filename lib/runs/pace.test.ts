import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { storeFor } from "../store";
import { Prisma } from "../db/generated/client";
import { paceFiguresAt, type PaceFigures } from "../store/workers";
import { paceOf } from "./pace";

// The ETA a run shows, checked against runs of known pace replayed into the database as they would
// stand at the moments 10%, 25%, 50% and 75% of their episodes are done: the ETA then must be within
// 30% of the time really left. One run's episodes are staggered; in another they end in waves, as
// 3 workers of 2 slots each playing episodes of equal length make them, each worker fetching its
// next jobs only at its next poll.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-pace-"));
let db: Database | undefined;
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Plan = Array<{ start: number; end: number }>;

/** Start and end (ms from the run's start) of 100 episodes of 20-40 s (seeded) when 8 slots take them in turn. */
function staggered(): Plan {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const free = Array.from({ length: 8 }, () => 0);
  return Array.from({ length: 100 }, () => {
    const slot = free.indexOf(Math.min(...free));
    const start = free[slot]!;
    const end = start + 20_000 + random() * 20_000;
    free[slot] = end;
    return { start, end };
  });
}

/**
 * 60 episodes of 30 s (ten 3 s replies) on 3 workers of 2 slots, each worker polling for jobs every
 * 2 s (at its own phase): a slot freed at an episode's end waits for its worker's next poll, so all
 * of a worker's episodes start together and end together, a wave every ~31 s.
 */
function waves(): Plan {
  const plan: Plan = [];
  const workers = [0, 700, 1400].map((phase) => ({ phase, free: [0, 0] }));
  let t = 0;
  while (plan.length < 60) {
    for (const w of workers) {
      if ((t - w.phase) % 2000 !== 0 || t < w.phase) continue;
      for (const [slot, freeAt] of w.free.entries()) {
        if (freeAt < t && plan.length < 60) {
          plan.push({ start: t, end: t + 30_000 });
          w.free[slot] = t + 30_000;
        }
      }
    }
    t += 100;
  }
  return plan;
}

interface Snapshot {
  share: number;
  now: number;
  /** The time really left, and the run's pace as it stands then. */
  realMs: number;
  figures: PaceFigures;
}

let runs = 0;

/** Replays `plan` into a run of its own and reads its pace figures at each share of it done (the database's rows, `waiting` of those playing then waiting for a server). */
async function replay(
  plan: Plan,
  shares: number[],
  waiting: (i: number) => boolean = () => false,
): Promise<Snapshot[]> {
  db ??= await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  const store = storeFor(db.prisma);
  if (!runs++)
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
  const taskIds = (await store.tasks.list({ benchmark: "backend", pageSize: 200 })).items.map((t) => t.id);
  const bestOf = Math.ceil(plan.length / taskIds.length);
  const run = await store.runs.insert({
    name: `paced ${runs}`,
    benchmark: "backend",
    config: { benchmark: "backend", selector: "all", taskIds, bestOf } as never,
  });
  await store.episodes.ensure(run.id, taskIds, bestOf);
  const ids = (await store.episodes.unfinished(run.id)).map((e) => e.id);
  // Only the first plan.length belong to the replayed run; the rest are removed.
  await db.prisma.episode.deleteMany({ where: { id: { in: ids.slice(plan.length) } } });
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const lastEnd = Math.max(...plan.map((p) => p.end));
  const ends = plan.map((p) => p.end).sort((a, b) => a - b);
  const seen: Snapshot[] = [];
  for (const share of shares) {
    const now = ends[Math.round(plan.length * share) - 1]! + 1000;
    await db.prisma.$transaction(
      plan.map((p, i) => {
        const state = p.end <= now ? "done" : p.start <= now ? "running" : "pending";
        return db!.prisma.episode.update({
          where: { id: ids[i]! },
          data: {
            status: state,
            startedAt: state === "pending" ? null : new Date(t0 + p.start),
            endedAt: state === "done" ? new Date(t0 + p.end) : null,
            leaseUntil: state === "running" ? new Date(t0 + now + 60_000) : null,
            claimedBy: state === "running" ? "player" : null,
            reward: state === "done" ? 1 : null,
            waitingFor:
              state === "running" && waiting(i)
                ? {
                    server: "http://127.0.0.1:9",
                    cause: "connect ECONNREFUSED 127.0.0.1:9",
                    since: new Date(t0 + now - 5000).toISOString(),
                  }
                : Prisma.DbNull,
          },
        });
      }),
    );
    seen.push({
      share,
      now,
      realMs: lastEnd - now,
      figures: await store.workers.paceFigures(run.id, new Date(t0 + now)),
    });
  }
  return seen;
}

/** The pace as it was counted before: the lease holders at this instant over the mean episode's length. */
const atOneInstant = (f: PaceFigures) =>
  paceOf({ remaining: f.remaining, playing: f.playing, ended: f.ended, meanEpisodeMs: f.meanEpisodeMs });

const errorOf = (etaMs: number | null, realMs: number) =>
  etaMs === null ? Number.POSITIVE_INFINITY : (etaMs - realMs) / realMs;
const line = (s: Snapshot, etaMs: number | null) =>
  `${s.share * 100}%: ETA ${etaMs === null ? "none" : (etaMs / 1000).toFixed(0) + " s"}, really ${(s.realMs / 1000).toFixed(0)} s (${(errorOf(etaMs, s.realMs) * 100).toFixed(0)}%)`;

describe("the ETA of a run of known pace", () => {
  it("is within 30% of the real time left at 10%, 25%, 50% and 75% done, episodes staggered", async () => {
    const seen = await replay(staggered(), [0.1, 0.25, 0.5, 0.75]);
    for (const s of seen) {
      const pace = paceOf(s.figures);
      expect(pace.state).toBe("playing");
      expect(
        Math.abs(errorOf(pace.etaMs, s.realMs)),
        seen.map((x) => line(x, paceOf(x.figures).etaMs)).join("; "),
      ).toBeLessThanOrEqual(0.3);
    }
  }, 60_000);

  it("is within 30% at 10%, 25%, 50% and 75% done when episodes end in waves, where the lease holders of one instant are far off", async () => {
    const seen = await replay(waves(), [0.1, 0.25, 0.5, 0.75]);
    const report = seen
      .map((s) => `${line(s, paceOf(s.figures).etaMs)} [one instant: ${line(s, atOneInstant(s.figures).etaMs)}]`)
      .join("; ");
    console.log(`waves: ${report}`);
    for (const s of seen) {
      const pace = paceOf(s.figures);
      expect(pace.state, report).toBe("playing");
      expect(Math.abs(errorOf(pace.etaMs, s.realMs)), report).toBeLessThanOrEqual(0.3);
    }
    // Right after a wave most slots wait for their worker's next poll: counted at that instant the
    // pace is a fraction of the real one (this is what the run page showed before).
    const quarter = seen.find((s) => s.share === 0.25)!;
    expect(Math.abs(errorOf(atOneInstant(quarter.figures).etaMs, quarter.realMs)), report).toBeGreaterThan(0.5);
  }, 60_000);

  it("gives no ETA while the episodes in play wait for a model server, and counts playing and waiting from the same rows", async () => {
    const [s] = await replay(waves(), [0.5], () => true);
    const pace = paceOf(s!.figures);
    expect(pace.state).toBe("waiting");
    expect(pace.etaMs).toBeNull();
    expect(pace.perMinute).toBeNull();
    expect(pace.waiting).toBeGreaterThan(0);
    expect(pace.waiting).toBe(pace.playing);
  }, 60_000);

  it("a run just started shows 'starting', not a pace from nothing", async () => {
    const [s] = await replay(
      waves().map((p) => ({ ...p, end: p.end + 60_000 })),
      [0.1],
    );
    // Moved back to before anything ended: six in play, none done.
    const early = paceFiguresAt(
      { ...s!.figures, recent: [], ended: 0, meanEpisodeMs: null, overallMs: null },
      new Date(s!.figures.atMs),
    );
    expect(paceOf(early).state).toBe("starting");
    expect(paceOf({ remaining: 100, playing: 8, ended: 0, meanEpisodeMs: null }).state).toBe("starting");
  }, 60_000);
});
