import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { deleteRun } from "../runs/remove";
import { storeFor, type Store } from ".";

// Played sessions and archived runs stay out of lists unless asked for; deleting a run takes what
// is its alone (episodes, turns, candidates, pairs, renders no other run names) and nothing else.
// Once on embedded PGlite, once on a real PostgreSQL server.

const { backends, dir, cleanup } = databaseBackends("runs");
afterAll(cleanup);

const config = (human: boolean) => ({
  benchmark: "frontend",
  agent: human ? { human: true } : { baseUrl: "http://m/v1", model: "m" },
  simulator: { baseUrl: "http://m/v1", model: "sim" },
});
const sha = (c: string) => c.repeat(64);

describe.each(backends)("runs on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  const ids: Record<string, number> = {};
  const renderDir = path.join(dir, "renders");

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "frontend.jsonl"),
      benchmark: "frontend",
      name: "samples",
    });
    const [t1, t2] = (await store.tasks.list({ benchmark: "frontend" })).items;
    for (const [name, kind] of [
      ["bench-a", "benchmark"],
      ["bench-b", "benchmark"],
      ["play-1", "played"],
    ] as const) {
      ids[name] = (
        await db.prisma.run.create({ data: { name, benchmark: "frontend", kind, config: config(kind === "played") } })
      ).id;
      await store.episodes.ensure(ids[name], [t1!.id, t2!.id], 1);
    }
    // bench-a's episodes: a turn render of its own, an answer render of its own, and the target
    // render it shares with bench-b.
    const episodesOf = (run: string) =>
      db.prisma.episode.findMany({ where: { runId: ids[run] }, orderBy: { id: "asc" } });
    const [a1] = await episodesOf("bench-a");
    const [b1] = await episodesOf("bench-b");
    await store.episodes.appendTurn(a1!.id, { index: 0, role: "simulator", content: "make me a page" });
    await store.episodes.appendTurn(a1!.id, {
      index: 1,
      role: "agent",
      content: "<html>a</html>",
      html: "<html>a</html>",
      renderId: sha("a"),
    });
    await store.episodes.finish(a1!.id, {
      answer: "<html>a</html>",
      reward: 0.9,
      details: { answerRender: sha("b"), targetRender: sha("c") },
    });
    await store.episodes.finish(b1!.id, {
      answer: "<html>x</html>",
      reward: 0.5,
      details: { answerRender: sha("d"), targetRender: sha("c") },
    });
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { episodeId: a1!.id, index: 1 } });
    await store.sweet.insertCandidates(turn.id, [
      { index: 0, text: "a", policyModel: "m", policyMean: -1, policySum: -2 },
    ]);
    for (const id of ["a", "b", "c", "d"].map(sha)) {
      fs.mkdirSync(path.join(renderDir, id.slice(0, 2)), { recursive: true });
      for (const ext of ["png", "json", "default-v2.f32"])
        fs.writeFileSync(path.join(renderDir, id.slice(0, 2), `${id}.${ext}`), "x");
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it("lists benchmark runs by default, played sessions when asked", async () => {
    expect((await store.runs.list()).map((r) => r.name)).toEqual(["bench-b", "bench-a"]);
    expect((await store.runs.list({ includePlayed: true })).map((r) => r.name)).toEqual([
      "play-1",
      "bench-b",
      "bench-a",
    ]);
    expect((await store.runs.list({ kind: "played" })).map((r) => r.name)).toEqual(["play-1"]);
    const sessions = await store.runs.sessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ runName: "play-1", seat: "agent", opponent: "sim" });
    expect((await store.runs.leaderboard()).map((r) => r.run.name).sort()).toEqual(["bench-a", "bench-b"]);
  });

  it("compares two runs task by task: finished rewards, each side's first finished episode", async () => {
    const first = async (run: string) =>
      (await db.prisma.episode.findFirstOrThrow({ where: { runId: ids[run], status: "done" } })).id;
    const result = await store.runs.compare(ids["bench-a"]!, ids["bench-b"]!);
    if (typeof result === "string") throw new Error(result);
    // The second task has no finished episode in either run, so it is not a row.
    expect(result.tasks).toEqual([
      {
        taskId: expect.any(Number) as unknown,
        problemDescription: expect.any(String) as unknown,
        a: 0.9,
        b: 0.5,
        aEpisode: await first("bench-a"),
        bEpisode: await first("bench-b"),
      },
    ]);
    // These runs record no render profile (as imported rewards do), so no win rate is drawn.
    expect(result.mismatches.map((m) => m.by)).toEqual(["render profile"]);
    expect(result.mismatches[0]!.reason).toContain("unknown render profile");
    expect(result.versus).toBeNull();
  });

  it("hides an archived run from lists and rankings until it is restored", async () => {
    expect(await store.runs.setArchived(ids["bench-b"]!, true)).toBe(true);
    expect((await store.runs.list()).map((r) => r.name)).toEqual(["bench-a"]);
    expect((await store.runs.leaderboard()).map((r) => r.run.name)).toEqual(["bench-a"]);
    expect((await store.runs.list({ includeArchived: true })).map((r) => r.name)).toEqual(["bench-b", "bench-a"]);
    expect((await store.runs.summary(ids["bench-b"]!))?.archivedAt).toBeInstanceOf(Date);
    await store.runs.setArchived(ids["bench-b"]!, false);
    expect((await store.runs.list()).map((r) => r.name)).toEqual(["bench-b", "bench-a"]);
  });

  it("deletes a run with its episodes, turns and candidates and the renders only it named", async () => {
    const before = {
      tasks: await db.prisma.task.count(),
      episodes: await db.prisma.episode.count(),
      turns: await db.prisma.turn.count(),
    };
    const deleted = await deleteRun(store, ids["bench-a"]!, renderDir);
    expect(deleted).toMatchObject({ episodes: 2, turns: 2, renderFiles: 6 });
    expect(deleted!.orphanRenders.sort()).toEqual([sha("a"), sha("b")]);
    expect(await store.runs.find("bench-a")).toBeNull();
    expect(await db.prisma.candidate.count()).toBe(0);
    expect(await db.prisma.task.count()).toBe(before.tasks);
    expect(await db.prisma.episode.count()).toBe(before.episodes - 2);
    expect(await db.prisma.turn.count()).toBe(before.turns - 2);
    // The shared target render and bench-b's own stay; bench-b is whole.
    const exists = (c: string) => fs.existsSync(path.join(renderDir, sha(c).slice(0, 2), `${sha(c)}.png`));
    expect(["a", "b", "c", "d"].map(exists)).toEqual([false, false, true, true]);
    expect(await store.runs.summary(ids["bench-b"]!)).toMatchObject({ total: 2, done: 1 });
    expect(await deleteRun(store, ids["bench-a"]!, renderDir)).toBeNull();
    // Put the files back for the next database's pass.
    for (const id of ["a", "b"].map(sha))
      for (const ext of ["png", "json", "default-v2.f32"])
        fs.writeFileSync(path.join(renderDir, id.slice(0, 2), `${id}.${ext}`), "x");
  });
});
