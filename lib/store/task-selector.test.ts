import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { importTasks } from "./import-tasks";
import { SAMPLE_SOURCE, seedSamplesIfEmpty } from "./seed";
import { parseSelector, resolveTaskSelector } from "./task-selector";

// A selector's refusals say what is wrong and what to write instead, in the studio every researcher
// has: the seeded sample files beside an imported test split.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-selector-"));
let db: Database;
const officialFile = path.join(dir, "backend_test.jsonl");

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await seedSamplesIfEmpty(db.prisma);
  // Other content than the samples (tasks are keyed on content), as an official test file would be.
  const lines = fs
    .readFileSync(path.join(projectRoot, "samples", "backend.jsonl"), "utf8")
    .trim()
    .split("\n")
    .slice(0, 6);
  const changed = lines.map((l) => {
    const task = JSON.parse(l) as { problem_description: string };
    return JSON.stringify({ ...task, problem_description: `${task.problem_description} (official)` });
  });
  fs.writeFileSync(officialFile, changed.join("\n") + "\n");
  const summary = await importTasks(db.prisma, { file: officialFile, benchmark: "backend", split: "test" });
  expect(summary.inserted).toBe(6);
}, 120_000);

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const resolve = (benchmark: "backend" | "frontend", selector: string, limit?: number) =>
  resolveTaskSelector(db.prisma, benchmark, selector, limit);

describe("selector messages", () => {
  it("index= alone beside the seeded samples names split=test as the selector to write", async () => {
    const refusal = resolve("backend", "index=0-49");
    await expect(refusal).rejects.toThrow(`2 backend files hold them (backend_test.jsonl, ${SAMPLE_SOURCE})`);
    await expect(refusal).rejects.toThrow("split=test is backend_test.jsonl");
    await expect(refusal).rejects.toThrow(/e\.g\. split=test,index=0-49$/);
    // What it suggests works.
    expect(await resolve("backend", "split=test,index=0-49")).toHaveLength(6);
  });

  it("a limit that stops inside the first file does not hide the second", async () => {
    await expect(resolve("backend", "index=0-49", 3)).rejects.toThrow("e.g. split=test,index=0-49");
  });

  it("a reversed range is called one, with the range to write", () => {
    expect(() => parseSelector("index=5-2")).toThrow('"5-2" in index= is a reversed range: write index=2-5');
    expect(() => parseSelector("ids=9-3")).toThrow("write ids=3-9");
  });

  it("lines=0 says lines count from 1 and offers index= for counting from 0", () => {
    expect(() => parseSelector("lines=0-3")).toThrow(
      "lines= count from 1, so there is no line 0: write index=0-3 to count from 0 (the same tasks as lines=1-4), or lines=1-3",
    );
    expect(() => parseSelector("ids=0")).toThrow("studio ids count from 1");
  });

  it("ids of another benchmark's tasks say whose they are", async () => {
    const [backendTask] = await db.prisma.task.findMany({
      where: { benchmark: "backend" },
      orderBy: { id: "asc" },
      take: 1,
    });
    const [frontendTask] = await db.prisma.task.findMany({
      where: { benchmark: "frontend" },
      orderBy: { id: "asc" },
      take: 1,
    });
    await expect(resolve("frontend", `ids=${backendTask!.id}`)).rejects.toThrow(
      `#${backendTask!.id} is a backend task, not frontend`,
    );
    // Named beside a task of the run's own benchmark, it is not dropped without a word either.
    await expect(resolve("frontend", `ids=${frontendTask!.id},${backendTask!.id}`)).rejects.toThrow(
      `#${backendTask!.id} is a backend task, not frontend`,
    );
    expect(await resolve("frontend", `ids=${frontendTask!.id}`)).toEqual([frontendTask!.id]);
  });
});
