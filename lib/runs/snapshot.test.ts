import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import type { Prisma } from "../db/generated/client";
import { databaseBackends } from "../db/testing/backends";
import { commonRunConfig } from "../benchmarks/testing/run-config";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { runActionsOf, runStateOf, stateOfSummary } from "./run-state";
import { loadRunSnapshot } from "./snapshot";

// The run page's one snapshot: its state word, counts, actions, span, dashboard and page of episodes
// must all say what the database holds at the moment it was read, whichever part of the page shows
// them, and the word must be the one the runs list and the CLI say for the same rows.

describe("the state word and the actions offered", () => {
  const counts = (c: Partial<{ total: number; done: number; failed: number; playing: number; toPlay: number }>) => ({
    total: 0,
    done: 0,
    failed: 0,
    playing: 0,
    toPlay: 0,
    ...c,
  });

  it("a run whose every episode ended is finished, whatever the status column or the player last said", () => {
    const ended = counts({ total: 40, done: 38, failed: 2 });
    expect(runStateOf({ ...ended, stored: "pending" })).toBe("finished");
    expect(runStateOf({ ...ended, stored: "running", here: { active: false, last: "running" } })).toBe("finished");
    expect(runStateOf({ ...ended, stored: "failed" })).toBe("finished");
  });

  it("a run with episodes held is running; one this studio plays is running before its first claim", () => {
    expect(runStateOf({ ...counts({ total: 40, done: 7, playing: 3, toPlay: 30 }), stored: "pending" })).toBe(
      "running",
    );
    expect(runStateOf({ ...counts({ total: 40, toPlay: 40 }), stored: "pending", here: { active: true } })).toBe(
      "running",
    );
    expect(
      runStateOf({
        ...counts({ total: 40, done: 3, playing: 2, toPlay: 35 }),
        stored: "running",
        here: { active: true, last: "stopping" },
      }),
    ).toBe("stopping");
  });

  it("a run with episodes left and none playing is new, stopped or crashed", () => {
    expect(runStateOf({ ...counts({ total: 40, toPlay: 40 }), stored: "pending" })).toBe("new");
    expect(runStateOf({ ...counts({ total: 40, done: 22, toPlay: 18 }), stored: "running" })).toBe("stopped");
    expect(runStateOf({ ...counts({ total: 40, done: 22, toPlay: 18 }), stored: "failed" })).toBe("crashed");
    expect(
      runStateOf({
        ...counts({ total: 40, done: 22, toPlay: 18 }),
        stored: "paused",
        here: { active: false, last: "crashed" },
      }),
    ).toBe("crashed");
  });

  it("Resume is offered only where it plays something, and Stop only while something it reaches plays", () => {
    expect(runActionsOf("finished", { toPlay: 0, failed: 0, playing: 0 }, true)).toEqual({
      stop: false,
      resume: null,
    });
    expect(runActionsOf("finished", { toPlay: 0, failed: 2, playing: 0 }, true).resume).toEqual({
      label: "Retry 2 failed episodes",
      episodes: 2,
    });
    expect(runActionsOf("stopped", { toPlay: 17, failed: 1, playing: 0 }, false).resume).toEqual({
      label: "Resume (18 episodes left)",
      episodes: 18,
    });
    expect(runActionsOf("running", { toPlay: 17, failed: 0, playing: 3 }, true)).toEqual({ stop: true, resume: null });
    // Played by a terminal this studio cannot stop: neither button.
    expect(runActionsOf("running", { toPlay: 17, failed: 0, playing: 3 }, false)).toEqual({
      stop: false,
      resume: null,
    });
    expect(runActionsOf("stopping", { toPlay: 17, failed: 0, playing: 3 }, true)).toEqual({
      stop: false,
      resume: null,
    });
  });

  it("the list's word is the page's for the same rows", () => {
    const run = { ...counts({ total: 40, done: 29, playing: 1, toPlay: 10 }), status: "running" };
    expect(stateOfSummary(run)).toBe(runStateOf({ ...run, stored: run.status }));
  });
});

const { backends, cleanup } = databaseBackends("run_snapshot");
afterAll(cleanup);

describe("a run's snapshot read from the store", () => {
  let db: Database;
  let store: Store;
  let runId: number;
  let episodes: number[];

  beforeAll(async () => {
    db = await backends[0]!.open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items.slice(0, 5);
    const config = JSON.parse(
      JSON.stringify(commonRunConfig("backend", { taskIds: tasks.map((t) => t.id), bestOf: 2 })),
    ) as Prisma.InputJsonObject;
    runId = (await db.prisma.run.create({ data: { name: "snap", benchmark: "backend", config } })).id;
    await store.episodes.ensure(
      runId,
      tasks.map((t) => t.id),
      2,
    );
    episodes = (await db.prisma.episode.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((e) => e.id);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s));

  it("before anything played: new, every episode pending, Resume offered to start it", async () => {
    const s = (await loadRunSnapshot(store, runId, { manages: false }))!;
    expect(s.state).toBe("new");
    expect(s.counts).toEqual({ total: 10, done: 0, failed: 0, playing: 0, toPlay: 10 });
    expect(s.span).toEqual({ startedAt: null, endedAt: null });
    expect(s.actions.resume).toEqual({ label: "Start (10 episodes)", episodes: 10 });
    expect(s.pipeline).toBeNull();
    expect(s.episodes.items.map((e) => e.status)).toEqual(Array(10).fill("pending"));
  });

  it("while episodes play: running, and the cards, the table, the span and the actions agree with the rows", async () => {
    await db.prisma.episode.updateMany({
      where: { id: { in: episodes.slice(0, 3) } },
      data: { status: "done", reward: 1, startedAt: at(0), endedAt: at(20) },
    });
    await db.prisma.episode.update({
      where: { id: episodes[3]! },
      data: { status: "failed", startedAt: at(1), endedAt: at(5), details: { error: "boom" } },
    });
    await db.prisma.episode.updateMany({
      where: { id: { in: episodes.slice(4, 6) } },
      data: { status: "running", startedAt: at(21), leaseUntil: new Date(Date.now() + 60_000), claimedBy: "test" },
    });
    const s = (await loadRunSnapshot(store, runId, { manages: true, now: at(30), queueStops: true }))!;
    expect(s.state).toBe("running");
    expect(s.counts).toEqual({ total: 10, done: 3, failed: 1, playing: 2, toPlay: 4 });
    expect(s.meanReward).toBe(1);
    // The dashboard counts the same rows as the cards.
    expect(s.dashboard.done).toBe(3);
    expect(s.dashboard.pace?.remaining).toBe(6);
    expect(s.span).toEqual({ startedAt: at(0).getTime(), endedAt: null });
    // Stop reaches it only where something this studio drives plays it: here nothing does and no queue.
    expect(s.actions).toEqual({ stop: false, resume: null, archived: false });
    const byStatus = Object.fromEntries(
      ["done", "failed", "running", "pending"].map((st) => [
        st,
        s.episodes.items.filter((e) => e.status === st).length,
      ]),
    );
    expect(byStatus).toEqual({ done: 3, failed: 1, running: 2, pending: 4 });
    expect(s.pipeline?.counts.episodesDone).toBe(3);
    // A filtered page is the same rows, filtered.
    const failed = (await loadRunSnapshot(store, runId, { manages: false, query: { status: "failed" } }))!;
    expect(failed.episodes.items.map((e) => e.id)).toEqual([episodes[3]]);
    expect(failed.episodes.items[0]!.failure).toContain("boom");
    // It travels as JSON unchanged.
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it("orders the table's page as the address asks, and sends notes to researchers only", async () => {
    // Rewards that differ: the first three done episodes get 0.2, 0.9, 0.5 (the rest have none).
    for (const [i, reward] of [0.2, 0.9, 0.5].entries())
      await db.prisma.episode.update({ where: { id: episodes[i]! }, data: { reward } });
    const ordered = (await loadRunSnapshot(store, runId, { manages: false, query: { sort: "reward", dir: "desc" } }))!;
    expect(ordered.episodes.items.slice(0, 3).map((e) => e.id)).toEqual([episodes[1], episodes[2], episodes[0]]);
    expect(ordered.episodes.query).toEqual({ sort: "reward", dir: "desc" });
    const ascending = (await loadRunSnapshot(store, runId, { manages: false, query: { sort: "reward", dir: "asc" } }))!;
    expect(ascending.episodes.items.slice(0, 3).map((e) => e.id)).toEqual([episodes[0], episodes[2], episodes[1]]);
    await store.runs.setNotes(runId, "seed 3; lr 1e-6");
    await store.runs.changeTags(runId, { add: ["baseline"] });
    const researcher = (await loadRunSnapshot(store, runId, { manages: true }))!;
    expect(researcher.run).toMatchObject({ notes: "seed 3; lr 1e-6", tags: ["baseline"] });
    const annotator = (await loadRunSnapshot(store, runId, { manages: false }))!;
    expect(annotator.run).toMatchObject({ notes: "", tags: ["baseline"] });
    for (const [i, reward] of [1, 1, 1].entries())
      await db.prisma.episode.update({ where: { id: episodes[i]! }, data: { reward } });
  });

  it("stopped with episodes left: Resume says how many; once they all ended: finished, ended time set, no Resume", async () => {
    await db.prisma.episode.updateMany({
      where: { id: { in: episodes.slice(4, 6) } },
      // As a stopped player leaves them (releaseClaims): still running, held by nobody.
      data: { leaseUntil: null },
    });
    await db.prisma.run.update({ where: { id: runId }, data: { status: "paused" } });
    const stopped = (await loadRunSnapshot(store, runId, { manages: false, now: at(40) }))!;
    expect(stopped.state).toBe("stopped");
    expect(stopped.counts).toEqual({ total: 10, done: 3, failed: 1, playing: 0, toPlay: 6 });
    expect(stopped.actions.resume).toEqual({ label: "Resume (7 episodes left)", episodes: 7 });
    expect(stopped.dashboard.pace).toBeNull();

    await db.prisma.episode.updateMany({
      where: { id: { in: episodes.slice(4) } },
      data: { status: "done", reward: 0, startedAt: at(41), endedAt: at(50) },
    });
    // The status column was left behind by a player that never wrote its end: the episodes decide.
    await db.prisma.run.update({ where: { id: runId }, data: { status: "running" } });
    const finished = (await loadRunSnapshot(store, runId, {
      manages: false,
      now: at(60),
      here: { active: false, last: "running" },
    }))!;
    expect(finished.state).toBe("finished");
    expect(finished.counts).toEqual({ total: 10, done: 9, failed: 1, playing: 0, toPlay: 0 });
    expect(finished.span).toEqual({ startedAt: at(0).getTime(), endedAt: at(50).getTime() });
    expect(finished.actions.resume).toEqual({ label: "Retry 1 failed episode", episodes: 1 });
    expect(finished.meanReward).toBeCloseTo(3 / 9);
  });

  it("an unknown run has no snapshot", async () => {
    expect(await loadRunSnapshot(store, 987654, { manages: false })).toBeNull();
  });
});
