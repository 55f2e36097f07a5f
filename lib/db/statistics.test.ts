import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { keepStatistics } from "./statistics";
import { openDatabase } from "./open";
import { storeFor } from "../store";
import { projectRoot } from "../paths";

describe("keepStatistics", () => {
  it("analyses after the first delay, then on every interval, and never after stop (which waits for one in flight)", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      let finish: () => void = () => {};
      const keeper = keepStatistics(
        () => {
          calls++;
          return new Promise<void>((resolve) => (finish = resolve));
        },
        { firstAfterMs: 100, everyMs: 1000 },
      );
      await vi.advanceTimersByTimeAsync(99);
      expect(calls).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(1);
      // The next one is timed from the end of this one, so they never overlap.
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toBe(1);
      finish();
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toBe(2);
      let stopped = false;
      const stopping = keeper.stop().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      finish();
      await stopping;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failing ANALYZE does not stop the next one", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const keeper = keepStatistics(() => (calls++, Promise.reject(new Error("closing"))), { firstAfterMs: 10, everyMs: 10 });
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

  it("gives the planner statistics (PGlite has no autovacuum)", async () => {
    process.env.COLBENCH_DB_ANALYZE_AFTER_MS = "200";
    process.env.COLBENCH_DB_ANALYZE_EVERY_MS = "200";
    const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    try {
      await storeFor(db.prisma).tasks.import({ file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: "backend", name: "samples" });
      const estimate = async () => (await db.prisma.$queryRaw<Array<{ n: number }>>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'Task'`)[0]!.n;
      // Nothing here runs ANALYZE: the estimate reaches the table's 14 rows only through the owner.
      await expect.poll(estimate, { timeout: 10_000, interval: 100 }).toBe(14);
    } finally {
      delete process.env.COLBENCH_DB_ANALYZE_AFTER_MS;
      delete process.env.COLBENCH_DB_ANALYZE_EVERY_MS;
      await db.close();
    }
  });
});
