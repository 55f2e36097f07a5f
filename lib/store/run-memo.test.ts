import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from ".";
import { makeRunPair, type RunPair } from "../label/testing/run-pair";
import { RunMemo, runRevision } from "./run-memo";
import { figuresAt, runFigures } from "./run-figures";
import { compareRuns } from "./leaderboard";
import { loadPipelineView } from "../sweet/pipeline-view";

// A run's page keeps its figures per revision of the run: counted once while nothing changes, and
// counted again after any write to the run, its episodes or their turns, whoever makes it.

const { backends, cleanup } = databaseBackends("memo");
afterAll(cleanup);

describe.each(backends)("figures kept per revision of a run on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 6 });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("moves with every write the figures depend on and with nothing else", async () => {
    const run = runs.a.id;
    const other = runs.b.id;
    const first = await runRevision(db.prisma, run);
    expect(first).not.toBeNull();
    expect(await runRevision(db.prisma, run)).toBe(first);
    expect(await runRevision(db.prisma, 987654)).toBeNull();
    const [episode] = (await store.runs.episodes(run, { pageSize: 1 })).items;
    const moves: Array<[string, () => Promise<unknown>]> = [
      [
        "a turn added to an episode",
        () => store.episodes.appendTurn(episode!.id, { index: 50, role: "simulator", content: "one more thing" }),
      ],
      ["an episode rescored", () => db.prisma.episode.update({ where: { id: episode!.id }, data: { reward: 0.25 } })],
      ["the run renamed", () => db.prisma.run.update({ where: { id: run }, data: { name: "renamed" } })],
      ["a turn deleted", () => db.prisma.turn.deleteMany({ where: { episodeId: episode!.id, index: 50 } })],
      ["an episode deleted", () => db.prisma.episode.delete({ where: { id: episode!.id } })],
    ];
    let last = first;
    for (const [what, write] of moves) {
      const otherBefore = await runRevision(db.prisma, other);
      await write();
      const now = await runRevision(db.prisma, run);
      expect(now, what).not.toBe(last);
      expect(await runRevision(db.prisma, other), `${what}: the other run`).toBe(otherBefore);
      last = now;
    }
  });

  it("counts once per revision, again once it moves, and the kept figures are the counted ones", async () => {
    const memo = new RunMemo(2);
    const run = runs.b.id;
    let counted = 0;
    const at = new Date();
    const count = async () => {
      counted++;
      return runFigures(db.prisma, run, at);
    };
    const a = await memo.get(run, await runRevision(db.prisma, run), "figures", count);
    const b = await memo.get(run, await runRevision(db.prisma, run), "figures", count);
    expect(counted).toBe(1);
    expect(b).toBe(a);
    const [episode] = (await store.runs.episodes(run, { pageSize: 1 })).items;
    await db.prisma.episode.update({ where: { id: episode!.id }, data: { reward: 1 } });
    const c = await memo.get(run, await runRevision(db.prisma, run), "figures", count);
    expect(counted).toBe(2);
    expect(c).toEqual(await runFigures(db.prisma, run, at));
    // A value that says it must not be kept is counted every time; the least recently used run is forgotten.
    await memo.get(
      run,
      "r",
      "now",
      async () => counted++,
      () => false,
    );
    await memo.get(
      run,
      "r",
      "now",
      async () => counted++,
      () => false,
    );
    expect(counted).toBe(4);
    await memo.get(1, "x", "figures", count);
    await memo.get(2, "x", "figures", count);
    await memo.get(run, await runRevision(db.prisma, run), "figures", count);
    expect(counted).toBe(7);
    // The store's own: the run page's figures equal a fresh count, later too (only the recent endings move).
    const kept = await store.runs.kept(run);
    const later = new Date(Date.now() + 11 * 60_000);
    expect(await kept.figures(later)).toEqual(figuresAt(await runFigures(db.prisma, run), later));
    expect(await kept.figures(later)).toEqual(await runFigures(db.prisma, run, later));
    expect(await kept.summary()).toEqual(await store.runs.summary(run));
  });

  it("keeps the run's row and pages of its episodes until the run or an episode changes, and only the latest pages", async () => {
    const run = runs.b.id;
    const options = { page: 2, pageSize: 2, status: "done" as const };
    let kept = await store.runs.kept(run);
    const page = await kept.episodes(options);
    expect(page).toEqual(await store.runs.episodes(run, options));
    expect(await (await store.runs.kept(run)).episodes(options)).toBe(page);
    expect(await kept.row()).toEqual(await store.runs.find(run));
    // A failure written to an episode of the page shows at once.
    await db.prisma.episode.update({
      where: { id: page.items[0]!.id },
      data: { status: "failed", details: { failure: { kind: "model", message: "server gone" } } },
    });
    kept = await store.runs.kept(run);
    const after = await kept.episodes(options);
    expect(after).not.toBe(page);
    expect(after).toEqual(await store.runs.episodes(run, options));
    await db.prisma.run.update({ where: { id: run }, data: { config: { note: "changed" } } });
    expect(await (await store.runs.kept(run)).row()).toEqual(await store.runs.find(run));
    // A bounded number of values per run: the least recently used page is counted again.
    const memo = new RunMemo(4, 2);
    let counted = 0;
    const count = async () => ++counted;
    await memo.get(run, "r", "page 1", count);
    await memo.get(run, "r", "page 2", count);
    await memo.get(run, "r", "page 1", count);
    await memo.get(run, "r", "page 3", count);
    expect(await memo.get(run, "r", "page 1", count)).toBe(1);
    expect(await memo.get(run, "r", "page 2", count)).toBe(4);
  });

  it("compares two runs from what is kept as it would from the database, before and after a write", async () => {
    const fresh = () => compareRuns(db.prisma, runs.a.id, runs.b.id);
    const before = await store.runs.compare(runs.a.id, runs.b.id);
    expect(before).toEqual(await fresh());
    // Kept while neither run moves: the same result, not a second bootstrap.
    expect(await store.runs.compare(runs.a.id, runs.b.id)).toBe(before);
    const [episode] = (await store.runs.episodes(runs.b.id, { pageSize: 1 })).items;
    await db.prisma.episode.update({ where: { id: episode!.id }, data: { reward: 0 } });
    const after = await store.runs.compare(runs.a.id, runs.b.id);
    expect(after).not.toBe(before);
    expect(after).toEqual(await fresh());
    expect(typeof after === "string" ? null : after.tasks.find((t) => t.bEpisode === episode!.id)?.b).toBe(0);
  });

  it("keeps the training panel's pairable count per revision: equal to a fresh count, counted again once a sample lands", async () => {
    const run = runs.a;
    const view = async () => {
      const kept = await store.runs.kept(run.id);
      return {
        kept: (await loadPipelineView(store, { ...run, benchmark: "backend" }, kept)).counts.pairable,
        fresh: (await loadPipelineView(store, { ...run, benchmark: "backend" })).counts.pairable,
      };
    };
    const before = await view();
    expect(before.kept).toBe(before.fresh);
    // Kept: worked out once while the revision holds.
    let worked = 0;
    const kept = await store.runs.kept(run.id);
    await kept.derived("probe", async () => ++worked);
    expect(await (await store.runs.kept(run.id)).derived("probe", async () => ++worked)).toBe(1);
    // A second sample of a task whose first passed every test, failing this time: one more trajectory pair.
    const [first] = (await store.runs.episodes(run.id, { pageSize: 1 })).items;
    const task = first!.taskId;
    const rewardOf = (await store.runs.episodes(run.id, { pageSize: 200 })).items.find(
      (e) => e.taskId === task,
    )!.reward;
    await db.prisma.episode.create({
      data: { runId: run.id, taskId: task, sample: 1, status: "done", reward: rewardOf === 1 ? 0 : 1 },
    });
    const after = await view();
    expect(after.kept).toBe(after.fresh);
    expect(after.kept).toBe(before.kept + 1);
    expect(await (await store.runs.kept(run.id)).derived("probe", async () => ++worked)).toBe(2);
  });
});
