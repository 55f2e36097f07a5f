import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { importTasks } from "./import-tasks";
import { appendTurn, ensureEpisodes, loadTurns } from "./episodes";
import { importAdvantages } from "./advantages";

let db: Database;
let episodeId: number;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-advantages-"));

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  const run = await db.prisma.run.create({ data: { name: "critic", benchmark: "backend", config: {} } });
  const task = await db.prisma.task.findFirstOrThrow();
  await ensureEpisodes(db.prisma, run.id, [task.id], 1);
  episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } })).id;
  for (const [index, role] of (["simulator", "agent", "simulator", "agent"] as const).entries()) {
    await appendTurn(db.prisma, episodeId, { index, role, content: `turn ${index}` });
  }
}, 60_000);

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("importAdvantages", () => {
  it("sets agent turns' advantages and names the file, line and field of every bad line", async () => {
    const file = path.join(dir, "advantages.jsonl");
    fs.writeFileSync(
      file,
      [
        { episode: episodeId, turn: 1, advantage: 0.25 },
        { episode: episodeId, turn: 3, advantage: -0.5 },
        { episode: episodeId, turn: 2, advantage: 1 },
        { episode: episodeId, turn: 9, advantage: 1 },
        { episode: episodeId, turn: 1, advantage: "high" },
        "{not json",
      ]
        .map((l) => (typeof l === "string" ? l : JSON.stringify(l)))
        .join("\n"),
    );
    const seen: string[] = [];
    const result = await importAdvantages(db.prisma, file, (m) => seen.push(m));
    expect(result.updated).toBe(2);
    expect(result.problems).toEqual(seen);
    expect(result.problems).toHaveLength(4);
    expect(result.problems[0]).toBe(
      `${file}:3: turn: turn 2 of episode ${episodeId} is the simulator's; advantages belong to agent turns`,
    );
    expect(result.problems[1]).toBe(`${file}:4: turn: episode ${episodeId} has no turn 9`);
    expect(result.problems[2]).toMatch(new RegExp(`^${file}:5: advantage: `));
    expect(result.problems[3]).toMatch(new RegExp(`^${file}:6: \\(json\\): `));
    // The bad line about turn 1 left the good value in place.
    expect((await loadTurns(db.prisma, episodeId)).map((t) => t.advantage)).toEqual([null, 0.25, null, -0.5]);
  });
});
