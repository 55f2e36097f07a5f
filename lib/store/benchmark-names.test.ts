import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { BENCHMARKS } from "../benchmarks";
import { storeFor, type Store } from ".";

// A benchmark is stored as text and checked against the registry: writes refuse a name it lacks;
// rows of a benchmark this studio does not know (a newer studio's, sharing the database) stay out
// of lists and counts, and reading one by id or name says why it cannot be opened.

const { backends, cleanup } = databaseBackends("benchmark-names");
afterAll(cleanup);

const UNKNOWN = "from-a-newer-studio";
const refusal = new RegExp(`no benchmark "${UNKNOWN}": the studio knows ${BENCHMARKS.join(", ")}`);

describe.each(backends)("benchmark names on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let strangeTask: number;
  let strangeRun: number;

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
    // What a newer studio would have written: the column takes any text.
    strangeTask = (
      await db.prisma.task.create({
        data: {
          benchmark: UNKNOWN,
          problemDescription: "a strange task",
          groundTruth: "g",
          source: "newer",
          sourceIndex: 1,
          contentHash: "strange",
        },
      })
    ).id;
    const config = { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } };
    strangeRun = (
      await db.prisma.run.create({ data: { name: "strange-run", benchmark: UNKNOWN, status: "done", config } })
    ).id;
    await db.prisma.run.create({ data: { name: "known-run", benchmark: "backend", status: "done", config } });
    await db.prisma.queue.create({
      data: { name: "strange-queue", kind: "trajectory", benchmark: UNKNOWN, overlap: 1, source: {} },
    });
    const [episode] = await store.episodes
      .ensure(strangeRun, [strangeTask], 1)
      .then(() => db.prisma.episode.findMany({ where: { runId: strangeRun } }));
    await store.episodes.appendTurn(episode!.id, {
      index: 0,
      role: "simulator",
      content: "a zeppelin of strange words",
    });
  });
  afterAll(async () => {
    await db?.close();
  });

  it("leaves rows of an unknown benchmark out of every list and count", async () => {
    const samples = (await store.tasks.list({ pageSize: 200 })).items;
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.map((t) => t.benchmark)).not.toContain(UNKNOWN);
    const counts = await store.tasks.counts();
    expect(Object.keys(counts.byBenchmark)).toEqual(BENCHMARKS);
    expect(counts.total).toBe(samples.length);
    expect((await store.runs.list({ includePlayed: true, includeArchived: true })).map((r) => r.name)).toEqual([
      "known-run",
    ]);
    expect((await store.runs.leaderboard()).map((r) => r.run.name)).not.toContain("strange-run");
    expect((await store.queues.list()).map((q) => q.name)).toEqual([]);
    expect(await store.episodes.search({ q: "zeppelin" })).toEqual([]);
  });

  it("says what is wrong when one is opened by id or name", async () => {
    const unknown = new RegExp(
      `is of benchmark "${UNKNOWN}", which this studio does not know \\(it knows ${BENCHMARKS.join(", ")}\\)`,
    );
    await expect(store.tasks.get(strangeTask)).rejects.toThrow(unknown);
    await expect(store.runs.find("strange-run")).rejects.toThrow(unknown);
    await expect(store.runs.summary(strangeRun)).rejects.toThrow(unknown);
    await expect(store.queues.find("strange-queue")).rejects.toThrow(unknown);
  });

  it("refuses to write a name the registry does not know, naming the ones it does, and writes nothing", async () => {
    const before = await db.prisma.task.count();
    await expect(
      store.tasks.import({ file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: UNKNOWN, name: "x" }),
    ).rejects.toThrow(refusal);
    expect(await db.prisma.task.count()).toBe(before);
    const run = { name: "new-run", benchmark: UNKNOWN, config: {} } as unknown as Parameters<
      Store["runs"]["insert"]
    >[0];
    await expect(store.runs.insert(run)).rejects.toThrow(refusal);
    const queue = {
      name: "new-queue",
      kind: "trajectory",
      benchmark: UNKNOWN,
      instructions: "",
      overlap: 1,
      goldRate: 0,
      showsHidden: false,
      source: {},
      memberIds: [],
      items: [],
    };
    await expect(store.queues.insert(queue as unknown as Parameters<Store["queues"]["insert"]>[0])).rejects.toThrow(
      refusal,
    );
    expect(await db.prisma.run.count({ where: { name: "new-run" } })).toBe(0);
    expect(await db.prisma.queue.count({ where: { name: "new-queue" } })).toBe(0);
  });
});
