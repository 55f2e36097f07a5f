import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { EPISODE_SORTS, type EpisodeSort } from "./runs";
import { storeFor, type Store } from ".";

// A run's episodes are paged, so their order is the database's: every column and direction the run
// page's headers offer, read page by page, must equal the database's own ORDER BY over the whole run,
// and a filter's total must equal its COUNT(*). Once on embedded PGlite, once on PostgreSQL.

const { backends, cleanup } = databaseBackends("episode-order");
afterAll(cleanup);

// The SQL a person would write for each column: nulls last, ties by episode number.
const SQL: Record<EpisodeSort, string> = {
  id: `"id"`,
  task: `"taskId" DIR, "sample" ASC`,
  sample: `"sample"`,
  turns: `"turnCount"`,
  reward: `"reward" DIR NULLS LAST`,
  status: `"status"`,
};

describe.each(backends)("episode order on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runId: number;

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
    const tasks = (await store.tasks.list({ benchmark: "backend" })).items.map((t) => t.id);
    runId = (await db.prisma.run.create({ data: { name: "order", benchmark: "backend", config: {} } })).id;
    await store.episodes.ensure(runId, tasks, 3);
    const episodes = await db.prisma.episode.findMany({ where: { runId }, orderBy: { id: "asc" } });
    // Rewards with ties and gaps, turn counts and statuses in no order the ids follow.
    const statuses = ["done", "failed", "pending", "running"] as const;
    for (const [i, e] of episodes.entries()) {
      const status = statuses[(i * 7) % 4]!;
      await db.prisma.episode.update({
        where: { id: e.id },
        data: {
          status,
          reward: status === "done" ? [0, 0.25, 1, 0.5, 0.25][(i * 3) % 5] : null,
          turnCount: (i * 5) % 9,
        },
      });
    }
  });
  afterAll(() => db?.close());

  const sqlOrder = async (column: EpisodeSort, dir: "asc" | "desc", status?: string) => {
    const order = SQL[column].includes("DIR") ? SQL[column].replaceAll("DIR", dir) : `${SQL[column]} ${dir}`;
    const rows = await db.prisma.$queryRawUnsafe<Array<{ id: number }>>(
      `SELECT "id" FROM "Episode" WHERE "runId" = $1 ${status ? `AND "status" = '${status}'` : ""} ORDER BY ${order}, "id" ASC`,
      runId,
    );
    return rows.map((r) => Number(r.id));
  };

  const pagedOrder = async (column: EpisodeSort, dir: "asc" | "desc", status?: "done") => {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const got = await store.runs.episodes(runId, { page, pageSize: 4, sort: { column, dir }, status });
      ids.push(...got.items.map((e) => e.id));
      if (page >= got.pages) return { ids, total: got.total };
    }
  };

  it.each(EPISODE_SORTS.flatMap((c) => [[c, "asc"] as const, [c, "desc"] as const]))(
    "orders by %s %s as the database does, across pages",
    async (column, dir) => {
      const { ids } = await pagedOrder(column, dir);
      expect(ids).toEqual(await sqlOrder(column, dir));
      expect(new Set(ids).size).toBe(42);
    },
  );

  it("filters as the database counts, in the asked order", async () => {
    const { ids, total } = await pagedOrder("reward", "desc", "done");
    const [count] = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT COUNT(*) AS n FROM "Episode" WHERE "runId" = $1 AND "status" = 'done'`,
      runId,
    );
    expect(total).toBe(Number(count!.n));
    expect(ids).toEqual(await sqlOrder("reward", "desc", "done"));
  });
});
