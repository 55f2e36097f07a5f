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
    await store.tasks.import({ file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: "backend", name: "samples" });
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items;
    const config = { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } };
    const bench = await db.prisma.run.create({ data: { name: "bench", benchmark: "backend", config } });
    const played = await db.prisma.run.create({ data: { name: "played", benchmark: "backend", kind: "played", config: { ...config, agent: { human: true } } } });
    await store.episodes.ensure(bench.id, [tasks[0]!.id, tasks[1]!.id], 1);
    await store.episodes.ensure(played.id, [tasks[2]!.id], 1);
    for (const e of await db.prisma.episode.findMany({ orderBy: { id: "asc" } })) episodes.push(e.id);
    const say = (episode: number, index: number, content: string) => store.episodes.appendTurn(episode, { index, role: index % 2 ? "agent" : "simulator", content });
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
    expect(all.map((h) => `${h.episodeId}:${h.index}`)).toEqual([`${episodes[2]}:1`, `${episodes[1]}:1`, `${episodes[0]}:1`]);
    expect((await store.episodes.search({ q: "discount", human: true })).map((h) => h.episodeId)).toEqual([episodes[2]]);
    expect((await store.episodes.search({ q: "discount", minReward: 0.5 })).map((h) => h.episodeId)).toEqual([episodes[0]]);
    expect((await store.episodes.search({ q: "discount", maxAgentTurns: 1, human: false })).map((h) => h.episodeId)).toEqual([episodes[1], episodes[0]]);
    expect(await store.episodes.search({ q: "discount -members" })).toHaveLength(2);
    expect(await store.episodes.search({ q: "   " })).toEqual([]);
  });
});
