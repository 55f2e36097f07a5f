import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { storeFor, type Store } from ".";
import { figuresOf, type RunFigures } from "./run-figures";

// The run's figures the database counts must equal the TypeScript reference over the same rows.
// The turn totals an episode row keeps (triggers on Turn) must equal what its turns say after
// every kind of write: single inserts, bulk inserts, changed usage, unrelated updates, deletes.
// Checked against an aggregate over Turn itself, on PGlite and on a real PostgreSQL server.

const { backends, cleanup } = databaseBackends("run_stats");
afterAll(cleanup);

describe.each(backends)("episode turn totals on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runId: number;
  let episodes: number[];

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items;
    const config = { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } };
    runId = (await db.prisma.run.create({ data: { name: "totals", benchmark: "backend", config } })).id;
    await store.episodes.ensure(runId, [tasks[0]!.id, tasks[1]!.id, tasks[2]!.id], 1);
    episodes = (await db.prisma.episode.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((e) => e.id);
  });
  afterAll(async () => {
    await db?.close();
  });

  /** The totals recomputed from the turns, the way the run page used to. */
  async function fromTurns() {
    const rows = await db.prisma.$queryRaw<
      Array<{ id: number; turns: number; agent: number; ap: number; ac: number; sp: number; sc: number }>
    >`
      SELECT e."id", count(t."id")::int AS turns, count(t."id") FILTER (WHERE t."role" = 'agent')::int AS agent,
             coalesce(sum((t."usage"->>'promptTokens')::int) FILTER (WHERE t."role" = 'agent'), 0)::int AS ap,
             coalesce(sum((t."usage"->>'completionTokens')::int) FILTER (WHERE t."role" = 'agent'), 0)::int AS ac,
             coalesce(sum((t."usage"->>'promptTokens')::int) FILTER (WHERE t."role" = 'simulator'), 0)::int AS sp,
             coalesce(sum((t."usage"->>'completionTokens')::int) FILTER (WHERE t."role" = 'simulator'), 0)::int AS sc
        FROM "Episode" e LEFT JOIN "Turn" t ON t."episodeId" = e."id" WHERE e."runId" = ${runId} GROUP BY e."id" ORDER BY e."id"`;
    return rows.map((r) => ({
      id: r.id,
      turns: r.turns,
      agentTurns: r.agent,
      tokens: { agent: { prompt: r.ap, completion: r.ac }, simulator: { prompt: r.sp, completion: r.sc } },
    }));
  }
  async function kept() {
    return (await store.runs.episodeStats(runId)).map((s) => ({
      id: s.id,
      turns: s.turns,
      agentTurns: s.agentTurns,
      tokens: s.tokens,
    }));
  }

  it("follow turns stored one at a time", async () => {
    const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens });
    await store.episodes.appendTurn(episodes[0]!, { index: 0, role: "simulator", content: "task" });
    await store.episodes.appendTurn(episodes[0]!, {
      index: 1,
      role: "agent",
      content: "a question?",
      usage: usage(100, 20),
    });
    await store.episodes.appendTurn(episodes[0]!, {
      index: 2,
      role: "simulator",
      content: "an answer",
      usage: usage(300, 40),
    });
    await store.episodes.appendTurn(episodes[0]!, {
      index: 3,
      role: "agent",
      content: "I WANT TO ANSWER: def f(): pass",
      usage: usage(150, 35),
    });
    await store.episodes.finish(episodes[0]!, { answer: "def f(): pass", reward: 1, details: {} });
    expect((await store.runs.episodeStats(runId))[0]).toMatchObject({ answerChars: 13, reward: 1, status: "done" });
    const stats = await kept();
    expect(stats[0]).toEqual({
      id: episodes[0],
      turns: 4,
      agentTurns: 2,
      tokens: { agent: { prompt: 250, completion: 55 }, simulator: { prompt: 300, completion: 40 } },
    });
    expect(stats[1]).toMatchObject({ turns: 0, agentTurns: 0 });
    expect(stats).toEqual(await fromTurns());
  });

  it("follow bulk inserts, changed usage and deletes, and ignore updates that change neither", async () => {
    await db.prisma.turn.createMany({
      data: [
        { episodeId: episodes[1]!, index: 0, role: "simulator", content: "task" },
        {
          episodeId: episodes[1]!,
          index: 1,
          role: "agent",
          content: "q",
          usage: { promptTokens: 10, completionTokens: 5 },
        },
        { episodeId: episodes[2]!, index: 0, role: "simulator", content: "task" },
        {
          episodeId: episodes[2]!,
          index: 1,
          role: "agent",
          content: "q",
          usage: { promptTokens: 7, completionTokens: 3 },
        },
        {
          episodeId: episodes[2]!,
          index: 2,
          role: "simulator",
          content: "a",
          usage: { promptTokens: 70, completionTokens: 30 },
        },
      ],
    });
    expect(await kept()).toEqual(await fromTurns());
    // A critic's advantage is written on turns all the time; it must not move a total.
    await db.prisma.turn.updateMany({ where: { episodeId: episodes[2]! }, data: { advantage: 0.5 } });
    expect((await kept())[2]).toMatchObject({
      turns: 3,
      agentTurns: 1,
      tokens: { agent: { prompt: 7, completion: 3 }, simulator: { prompt: 70, completion: 30 } },
    });
    // Usage rewritten, a turn moved to another episode, turns deleted.
    await db.prisma.turn.updateMany({
      where: { episodeId: episodes[1]!, index: 1 },
      data: { usage: { promptTokens: 11, completionTokens: 6 } },
    });
    await db.prisma.turn.updateMany({
      where: { episodeId: episodes[2]!, index: 2 },
      data: { episodeId: episodes[1]!, index: 2 },
    });
    await db.prisma.turn.deleteMany({ where: { episodeId: episodes[0]!, index: { gte: 2 } } });
    const stats = await kept();
    expect(stats[0]).toMatchObject({
      turns: 2,
      agentTurns: 1,
      tokens: { agent: { prompt: 100, completion: 20 }, simulator: { prompt: 0, completion: 0 } },
    });
    expect(stats[1]).toMatchObject({
      turns: 3,
      agentTurns: 1,
      tokens: { agent: { prompt: 11, completion: 6 }, simulator: { prompt: 70, completion: 30 } },
    });
    expect(stats).toEqual(await fromTurns());
  });

  it("are counted by the database exactly as the reference counts the rows: bins, best-of-k, tokens, pace", async () => {
    // A run of 3 tasks x 5 samples with every kind of episode: done (rewards 0, tenths, 1), failed,
    // running, pending; answers of many lengths; ends spread over twenty minutes.
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items.slice(0, 3).map((t) => t.id);
    const config = { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } };
    const run = (await db.prisma.run.create({ data: { name: "figures", benchmark: "backend", config } })).id;
    await store.episodes.ensure(run, tasks, 5);
    const rows = await db.prisma.episode.findMany({ where: { runId: run }, orderBy: { id: "asc" } });
    const now = new Date("2026-06-01T12:00:00.000Z");
    const rewards = [0, 0.05, 0.1, 0.45, 1, 0.999, 1, null, 0.5, 0.7, 0, null, 0.95, 0.3, null];
    for (const [i, e] of rows.entries()) {
      for (let t = 0; t < 1 + (i % 4) * 2; t++) {
        await store.episodes.appendTurn(e.id, {
          index: t,
          role: t % 2 ? "agent" : "simulator",
          content: "x",
          usage: { promptTokens: 100 * i + t, completionTokens: 7 * t },
        });
      }
      const reward = rewards[i];
      if (reward !== null && reward !== undefined) {
        await store.episodes.finish(e.id, { answer: "y".repeat(37 * i * i), reward, details: {} });
        await db.prisma.episode.update({
          where: { id: e.id },
          data: { endedAt: new Date(now.getTime() - (i * 90_000 + 123)) },
        });
      } else if (i === 7) {
        await db.prisma.episode.update({ where: { id: e.id }, data: { status: "failed" } });
      } else if (i === 11) {
        await store.episodes.claim(e.id, "test", 60_000);
      }
    }
    const sql = await store.runs.figures(run, now);
    const reference = figuresOf(await store.runs.episodeStats(run), now);
    const exact = (f: RunFigures) => ({
      ...f,
      byAgentTurns: f.byAgentTurns.map(([t, n, s]) => [t, n, s]),
      tasks: { ...f.tasks, bestSum: 0 },
    });
    expect(exact(sql)).toEqual(exact(reference));
    sql.byAgentTurns.forEach((row, i) => expect(row[3]).toBeCloseTo(reference.byAgentTurns[i]![3], 9));
    expect(sql.tasks.bestSum).toBeCloseTo(reference.tasks.bestSum, 9);
    // The case is not degenerate: every part has something in it.
    expect(sql).toMatchObject({ episodes: 15, done: 12, remaining: 2, tasks: { count: 3, k: 5, successes: 2 } });
    expect(sql.ended.sinceCutoff).toBeGreaterThan(0);
    expect(sql.ended.sinceCutoff).toBeLessThan(sql.ended.total);
    expect(sql.answerChars.counts.length).toBeGreaterThan(3);
    // An empty run.
    const empty = (await db.prisma.run.create({ data: { name: "empty", benchmark: "backend", config } })).id;
    expect(await store.runs.figures(empty, now)).toEqual(figuresOf([], now));
  });

  it("start from what was stored before the totals existed (the migration fills them in)", async () => {
    const sql = fs.readFileSync(
      path.join(
        projectRoot,
        "prisma",
        "migrations",
        fs.readdirSync(path.join(projectRoot, "prisma", "migrations")).find((d) => d.endsWith("_episode_turn_totals"))!,
        "migration.sql",
      ),
      "utf8",
    );
    const backfill = sql.slice(sql.lastIndexOf('UPDATE "Episode" e'));
    await db.prisma.$executeRawUnsafe(
      `UPDATE "Episode" SET "turnCount" = 0, "agentTurnCount" = 0, "agentPromptTokens" = 0, "agentCompletionTokens" = 0, "simulatorPromptTokens" = 0, "simulatorCompletionTokens" = 0`,
    );
    expect((await kept()).every((s) => s.turns === 0)).toBe(true);
    await db.prisma.$executeRawUnsafe(backfill);
    expect(await kept()).toEqual(await fromTurns());
  });
});
