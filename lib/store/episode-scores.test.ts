import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { appendTurn, ensureEpisodes } from "./episodes";
import { episodeToScore, saveEpisodeScores } from "./episode-scores";
import { importTasks } from "./import-tasks";
import { insertCandidates } from "./sweet";

// An episode scored by a browser: what it is given, and how what comes back is stored.

let db: Database;
let episodeId: number;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-episode-scores-"));
const prompt = [{ role: "user", content: "write f" }];

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, { file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: "backend", name: "samples" });
  const run = await db.prisma.run.create({ data: { name: "browser", benchmark: "backend", config: {} } });
  const task = await db.prisma.task.findFirstOrThrow();
  await ensureEpisodes(db.prisma, run.id, [task.id], 1);
  episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } })).id;
  for (const [index, role] of (["simulator", "agent", "simulator", "agent"] as const).entries()) {
    await appendTurn(db.prisma, episodeId, { index, role, content: `turn ${index}`, rawOutput: role === "agent" ? `OUTPUT: turn ${index}` : undefined, prompt: role === "agent" ? prompt : undefined });
  }
  const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { episodeId, index: 1 } });
  await insertCandidates(db.prisma, turn1.id, [0, 1].map((index) => ({ index, text: `candidate ${index}`, policyModel: "server", policyMean: -1, policySum: -2 })));
}, 60_000);

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("an episode scored in a browser", () => {
  it("is given its agent turns' prompts, raw outputs and candidates, and the task's final answer", async () => {
    const inputs = await episodeToScore(db.prisma, episodeId);
    const task = await db.prisma.task.findFirstOrThrow({ where: { episodes: { some: { id: episodeId } } } });
    expect(inputs).toEqual({
      episodeId,
      groundTruth: task.groundTruth,
      turns: [
        { index: 1, prompt, output: "OUTPUT: turn 1", candidates: [{ index: 0, text: "candidate 0" }, { index: 1, text: "candidate 1" }] },
        { index: 3, prompt, output: "OUTPUT: turn 3", candidates: [] },
      ],
    });
    expect(await episodeToScore(db.prisma, 999_999)).toBeNull();
  });

  it("refuses a list naming a simulator turn or a missing candidate, and changes nothing", async () => {
    const values = { criticScore: -1, policyMean: -2, policySum: -4, advantage: 1 };
    await expect(saveEpisodeScores(db.prisma, episodeId, { critic: "c", policy: "p" }, [{ turn: 3, ...values }, { turn: 2, ...values }])).rejects.toThrow(`turns: turn 2 of episode ${episodeId} is the simulator's`);
    await expect(saveEpisodeScores(db.prisma, episodeId, { critic: "c", policy: "p" }, [{ turn: 1, ...values, candidates: [{ index: 7, ...values }] }])).rejects.toThrow("turns: turn 1 has no candidate 7");
    expect((await db.prisma.turn.findMany({ where: { episodeId }, orderBy: { index: "asc" } })).map((t) => t.advantage)).toEqual([null, null, null, null]);
  });

  it("stores candidates' scores with the recomputing policy, and each turn's advantage", async () => {
    const saved = await saveEpisodeScores(db.prisma, episodeId, { critic: "critic-dir", policy: "policy-dir" }, [
      { turn: 1, criticScore: -0.5, policyMean: -0.7, policySum: -1.4, advantage: 0.2, candidates: [
        { index: 0, criticScore: -0.5, policyMean: -0.7, policySum: -1.4, advantage: 0.2 },
        { index: 1, criticScore: -0.9, policyMean: -0.6, policySum: -3, advantage: null },
      ] },
      { turn: 3, criticScore: -0.1, policyMean: -0.4, policySum: -2, advantage: 0.3 },
    ]);
    expect(saved).toEqual({ turns: 2, candidates: 2 });
    const candidates = await db.prisma.candidate.findMany({ orderBy: { index: "asc" } });
    expect(candidates.map((c) => [c.criticModel, c.criticScore, c.policyModel, c.policyMean, c.policySum, c.advantage])).toEqual([
      ["critic-dir", -0.5, "policy-dir", -0.7, -1.4, 0.2],
      ["critic-dir", -0.9, "policy-dir", -0.6, -3, null],
    ]);
    expect((await db.prisma.turn.findMany({ where: { episodeId }, orderBy: { index: "asc" } })).map((t) => t.advantage)).toEqual([null, 0.2, null, 0.3]);
  });
});
