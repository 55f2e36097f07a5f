import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { storeFor, type Store } from ".";

// Full-text search of turns, on embedded PGlite and on a real PostgreSQL server.

const { backends, cleanup } = databaseBackends("search");
afterAll(cleanup);

describe.each(backends)("turn search on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  const episodes: number[] = [];

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
    const bench = await db.prisma.run.create({ data: { name: "bench", benchmark: "backend", config } });
    const played = await db.prisma.run.create({
      data: { name: "played", benchmark: "backend", kind: "played", config: { ...config, agent: { human: true } } },
    });
    await store.episodes.ensure(bench.id, [tasks[0]!.id, tasks[1]!.id], 1);
    await store.episodes.ensure(played.id, [tasks[2]!.id], 1);
    for (const e of await db.prisma.episode.findMany({ orderBy: { id: "asc" } })) episodes.push(e.id);
    const say = (episode: number, index: number, content: string) =>
      store.episodes.appendTurn(episode, { index, role: index % 2 ? "agent" : "simulator", content });
    await say(episodes[0]!, 0, "Write me a shipping calculator.");
    await say(episodes[0]!, 1, "Should members get a bigger discount than everyone else?");
    await say(episodes[0]!, 2, "Yes, members get ten percent off.");
    await say(episodes[1]!, 0, "Curve the grades of my class.");
    await say(episodes[1]!, 1, "Do you want the discount rounded?");
    await say(episodes[2]!, 0, "Count the log levels.");
    await say(episodes[2]!, 1, "Are discounts relevant to log levels at all?");
    await store.episodes.finish(episodes[0]!, { answer: "def f(): pass", reward: 1, details: {} });
    await store.episodes.finish(episodes[1]!, { answer: "def g(): pass", reward: 0.2, details: {} });
  });
  afterAll(async () => {
    await db?.close();
  });

  it("finds a phrase in the one turn that says it, with the words marked", async () => {
    const hits = await store.episodes.search({ q: '"members get a bigger discount"' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ episodeId: episodes[0], index: 1, role: "agent", runName: "bench", reward: 1 });
    expect(hits[0]!.snippet).toContain("«members»");
  });

  it("matches word forms and filters by run kind, reward and agent turns", async () => {
    const all = await store.episodes.search({ q: "discount" });
    expect(all.map((h) => `${h.episodeId}:${h.index}`)).toEqual([
      `${episodes[2]}:1`,
      `${episodes[1]}:1`,
      `${episodes[0]}:1`,
    ]);
    expect((await store.episodes.search({ q: "discount", human: true })).map((h) => h.episodeId)).toEqual([
      episodes[2],
    ]);
    expect((await store.episodes.search({ q: "discount", minReward: 0.5 })).map((h) => h.episodeId)).toEqual([
      episodes[0],
    ]);
    expect(
      (await store.episodes.search({ q: "discount", maxAgentTurns: 1, human: false })).map((h) => h.episodeId),
    ).toEqual([episodes[1], episodes[0]]);
    expect(await store.episodes.search({ q: "discount -members" })).toHaveLength(2);
    expect(await store.episodes.search({ q: "   " })).toEqual([]);
  });

  it("within a run, finds its turns only, in episodes made after another run's as well, and nothing in a run without episodes", async () => {
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items;
    const config = { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } };
    const early = await db.prisma.run.create({ data: { name: "early", benchmark: "backend", config } });
    const middle = await db.prisma.run.create({ data: { name: "middle", benchmark: "backend", config } });
    const empty = await db.prisma.run.create({ data: { name: "empty", benchmark: "backend", config } });
    // early's episodes lie on both sides of middle's: its span holds one of middle's.
    await store.episodes.ensure(early.id, [tasks[3]!.id], 1);
    await store.episodes.ensure(middle.id, [tasks[3]!.id], 1);
    await store.episodes.ensure(early.id, [tasks[3]!.id, tasks[4]!.id], 1);
    const of = async (runId: number) =>
      (await db.prisma.episode.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((e) => e.id);
    const [e1, e2] = await of(early.id);
    const [m1] = await of(middle.id);
    expect(e1! < m1! && m1! < e2!).toBe(true);
    await store.episodes.appendTurn(e1!, { index: 0, role: "simulator", content: "Send the invoice by mail." });
    await store.episodes.appendTurn(m1!, { index: 0, role: "simulator", content: "The invoice goes out monthly." });
    await store.episodes.appendTurn(e2!, { index: 0, role: "simulator", content: "Print one invoice per customer." });
    expect((await store.episodes.search({ q: "invoice", runId: early.id })).map((h) => h.episodeId)).toEqual([e2, e1]);
    expect((await store.episodes.search({ q: "invoice", runId: middle.id })).map((h) => h.episodeId)).toEqual([m1]);
    expect(await store.episodes.search({ q: "invoice", runId: empty.id })).toEqual([]);
    expect(await store.episodes.search({ q: "invoice", runId: 999_999 })).toEqual([]);
    expect((await store.episodes.search({ q: "invoice" })).map((h) => h.episodeId)).toEqual([e2, m1, e1]);
  });
});
