import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { keepStatistics } from "./statistics";
import { openDatabase, type Database } from "./open";
import { storeFor } from "../store";
import { projectRoot } from "../paths";
import { addUser } from "../access/users";

describe("keepStatistics", () => {
  /** A source that records what it was asked, with `stale` answering `due` and each step held until `finish()`. */
  function recording(due: string[][]) {
    const calls: string[] = [];
    let finish: () => void = () => {};
    const held = (name: string) => () => {
      calls.push(name);
      return new Promise<void>((resolve) => (finish = resolve));
    };
    const source = {
      analyzeAll: held("all"),
      stale: async () => {
        calls.push("check");
        return due.shift() ?? [];
      },
      analyze: async (tables: string[]) => {
        calls.push(`analyze ${tables.join(",")}`);
        return held("")();
      },
    };
    return { source, calls, finish: () => finish() };
  }

  it("analyses everything after the first delay, then on every interval only the tables past the threshold, never overlapping, and never after stop (which waits for one in flight)", async () => {
    vi.useFakeTimers();
    try {
      const { source, calls, finish } = recording([[], ['public."Label"', 'public."QueueSlot"'], []]);
      const keeper = keepStatistics(source, { firstAfterMs: 100, everyMs: 1000 });
      await vi.advanceTimersByTimeAsync(99);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual(["all"]);
      // The next step is timed from the end of this one, so they never overlap.
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toEqual(["all"]);
      finish();
      // Nothing due: a check and no ANALYZE.
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toEqual(["all", "check"]);
      // Two tables due: those two only, in one ANALYZE.
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toEqual(["all", "check", "check", 'analyze public."Label",public."QueueSlot"', ""]);
      let stopped = false;
      const stopping = keeper.stop().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      finish();
      await stopping;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toHaveLength(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failing ANALYZE or check does not stop the next one", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const fail = () => (calls++, Promise.reject(new Error("closing")));
      const keeper = keepStatistics(
        { analyzeAll: fail, stale: fail, analyze: fail },
        { firstAfterMs: 10, everyMs: 10 },
      );
      await vi.advanceTimersByTimeAsync(35);
      expect(calls).toBe(3);
      await keeper.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the embedded database's owner", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-statistics-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const estimate = async (db: Database, table: string) =>
    (
      await db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT reltuples::float8 AS n FROM pg_class WHERE relname = $1`,
        table,
      )
    )[0]!.n;
  const analysed = async (db: Database, table: string) =>
    (
      await db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT analyze_count::float8 AS n FROM pg_stat_user_tables WHERE relname = $1`,
        table,
      )
    )[0]!.n;
  const quickly = () => {
    process.env.COLBENCH_DB_ANALYZE_AFTER_MS = "200";
    process.env.COLBENCH_DB_ANALYZE_EVERY_MS = "200";
  };
  afterEach(() => {
    delete process.env.COLBENCH_DB_ANALYZE_AFTER_MS;
    delete process.env.COLBENCH_DB_ANALYZE_EVERY_MS;
  });

  it("analyses only the tables that changed past autovacuum's threshold (PGlite has no autovacuum)", async () => {
    quickly();
    const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    try {
      const store = storeFor(db.prisma);
      // 14 tasks are under autovacuum's threshold for a table of none (50 + 10% of its rows).
      await store.tasks.import({
        file: path.join(projectRoot, "samples", "backend.jsonl"),
        benchmark: "backend",
        name: "samples",
      });
      const tasksAnalysed = await analysed(db, "Task");
      // 80 users pass it (at the 51st): the owner analyses that table, and nothing here runs ANALYZE.
      for (let i = 0; i < 80; i++) await addUser(store, `statistics-${i}`, "annotator");
      await expect.poll(() => estimate(db, "User"), { timeout: 10_000, interval: 100 }).toBeGreaterThan(50);
      expect(await analysed(db, "Task")).toBe(tasksAnalysed);
      // An ANALYZE of so small a table counts every row it has, and the ones since are under the
      // threshold of a table that size (at most 29 then, 39 after ten more, against 55 or more).
      await new Promise((resolve) => setTimeout(resolve, 500));
      const counted = await estimate(db, "User");
      for (let i = 80; i < 90; i++) await addUser(store, `statistics-${i}`, "annotator");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await estimate(db, "User")).toBe(counted);
    } finally {
      await db.close();
    }
  });

  it("analyses every table soon after it opens a folder (the tasks' 14 rows, under the threshold, included)", async () => {
    quickly();
    const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    try {
      await expect.poll(() => estimate(db, "Task"), { timeout: 10_000, interval: 100 }).toBe(14);
      await expect.poll(() => estimate(db, "User"), { timeout: 10_000, interval: 100 }).toBe(90);
    } finally {
      await db.close();
    }
  });
});
