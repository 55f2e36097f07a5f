import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { appendTurn, ensureEpisodes } from "../store/episodes";
import { rankCandidates } from "../sweet/pipeline";
import { templateForRun } from "../sweet/run-template";
import { scoringDefinition } from "../sweet/scoring-definition";
import { importTasks } from "../store/import-tasks";
import { CpuModel } from "./model/cpu-model";
import { LocalScorer } from "./model/scorer";
import { ModelTokenizer } from "./model/tokenizer";
import { folderSource } from "./node/folder-source";
import { scoreTurnsInStudio } from "./node/live-scorer";
import { scoreEpisode } from "./score-episode";

// Live advantages: each agent turn scored the moment it is stored, while the episode's later turns
// do not exist yet, once the way the viewer's tab scores it (lib/gpu/score-episode.ts, as the Web
// Worker runs it) and once in the studio's process (the agent seat's coach mode). After the episode,
// `rank --critic-weights --policy-weights` with the same models stores its own value for every turn's
// candidate 0 (the turn's own output): the live values must be those, within 1e-5.

const fixtures = path.resolve(import.meta.dirname, "fixtures");
const TOLERANCE = 1e-5;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-live-advantages-"));
let db: Database;
let store: Store;
let taskId: number;
let critic: LocalScorer;
let policy: LocalScorer;
const env = { ...process.env };

const open = async (name: string) => {
  const source = folderSource(path.join(fixtures, name));
  return new LocalScorer(await CpuModel.load(source), await ModelTokenizer.load(source), name);
};
const prompt = (n: number) => [
  { role: "system", content: "You write small Python functions and ask before guessing." },
  { role: "user", content: `Write f: it counts the vowels of a string. (turn ${n})` },
];

beforeAll(async () => {
  critic = await open("llama-tiny");
  policy = await open("llama-tiny-bf16");
  // The studio serves the same two folders; its process scores on the CPU runner here.
  process.env.COLBENCH_CRITIC_WEIGHTS = path.join(fixtures, "llama-tiny");
  process.env.COLBENCH_POLICY_WEIGHTS = path.join(fixtures, "llama-tiny-bf16");
  process.env.COLBENCH_LIVE_DEVICE = "cpu";
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  store = storeFor(db.prisma);
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  taskId = (await db.prisma.task.findFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  process.env = env;
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Scores one agent turn as the viewer's tab does, from the inputs as they stand now, and keeps it. */
async function scoreInTab(episodeId: number, turn: number) {
  const inputs = (await store.sweet.episodeToScore(episodeId))!;
  const definition = scoringDefinition(inputs, critic.tokenizer.templateFamily());
  const turns = await scoreEpisode(inputs, critic, policy, { definition, only: [turn] });
  await store.sweet.saveBrowserScores(
    episodeId,
    {
      device: "test tab",
      models: { critic: "llama-tiny", policy: "llama-tiny-bf16" },
      template: definition.template.recorded,
      templateFrom: definition.templateFrom,
      settings: definition.settings,
      settingsFrom: definition.settingsFrom,
    },
    turns,
  );
  return turns;
}

describe("live advantages", () => {
  it(
    "give each agent turn, scored as it is stored, the value rank stores for it later",
    { timeout: 240_000 },
    async () => {
      const { id: runId } = await db.prisma.run.create({
        data: { name: "live", benchmark: "backend", kind: "played", config: {} },
      });
      await ensureEpisodes(db.prisma, runId, [taskId], 1);
      const episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId } })).id;
      const add = (index: number, role: "agent" | "simulator") =>
        appendTurn(db.prisma, episodeId, {
          index,
          role,
          content: role === "agent" ? `question ${index}?` : `answer ${index}`,
          rawOutput: role === "agent" ? `THOUGHT: ask.\nOUTPUT: question ${index}?` : undefined,
          prompt: role === "agent" ? prompt(index) : undefined,
        });

      await add(0, "simulator");
      await add(1, "agent");
      const tab = await scoreInTab(episodeId, 1);
      expect(tab.map((t) => t.turn)).toEqual([1]);
      // The simulator's turn is no agent turn to score.
      await expect(scoreTurnsInStudio(store, episodeId, [0])).rejects.toThrow("has no stored agent turn 0");
      await add(2, "simulator");
      await add(3, "agent");
      const studio = (await scoreTurnsInStudio(store, episodeId, [3]))!;
      expect(studio.device).toBe("studio: cpu");
      expect(studio.turns.map((t) => t.turn)).toEqual([3]);
      await add(4, "simulator");
      await db.prisma.episode.update({ where: { id: episodeId }, data: { status: "done", reward: 1 } });

      const live = await store.sweet.liveAdvantages(episodeId);
      expect(live.map((a) => [a.turn, a.device, a.criticModel, a.policyModel])).toEqual([
        [1, "test tab", "llama-tiny", "llama-tiny-bf16"],
        [3, "studio: cpu", "llama-tiny", "llama-tiny-bf16"],
      ]);
      expect(live[0]!.template).toContain("llama3");

      // After the episode: candidates as `colbench candidates` stores them (0 = the turn's own output),
      // then `rank --critic-weights --policy-weights`, whose template is the critic's own family.
      for (const turn of await db.prisma.turn.findMany({ where: { episodeId, role: "agent" } })) {
        await store.sweet.insertCandidates(turn.id, [
          { index: 0, text: turn.rawOutput!, policyModel: "server", policyMean: -1, policySum: -9, sampledVia: "own" },
          { index: 1, text: "OUTPUT: def f(s): return 0", policyModel: "server", policyMean: -1, policySum: -9 },
        ]);
      }
      const template = await templateForRun(store, runId, critic.tokenizer.templateFamily() ?? undefined);
      await rankCandidates(store, runId, critic, { template, policy });
      const ranked = await db.prisma.candidate.findMany({
        where: { turn: { episodeId }, index: 0 },
        select: { advantage: true, criticScore: true, policyMean: true, turn: { select: { index: true } } },
      });
      expect(ranked).toHaveLength(2);
      for (const row of ranked) {
        const value = live.find((a) => a.turn === row.turn.index)!;
        expect(value.advantage, `turn ${row.turn.index}`).not.toBeNull();
        expect(Math.abs(value.advantage! - row.advantage!), `turn ${row.turn.index} advantage`).toBeLessThanOrEqual(
          TOLERANCE,
        );
        expect(Math.abs(value.criticScore! - row.criticScore!), `turn ${row.turn.index} critic`).toBeLessThanOrEqual(
          TOLERANCE,
        );
        expect(Math.abs(value.policyMean! - row.policyMean), `turn ${row.turn.index} policy`).toBeLessThanOrEqual(
          TOLERANCE,
        );
      }
      // The two turns' values differ: a test that compared a turn with itself would not see a wrong turn.
      expect(Math.abs(live[0]!.advantage! - live[1]!.advantage!)).toBeGreaterThan(1e-4);
    },
  );

  it("is coach mode in practice play only", async () => {
    const played = await db.prisma.run.create({
      data: { name: "practice", benchmark: "backend", kind: "played", config: {} },
    });
    const evaluation = await db.prisma.run.create({ data: { name: "evaluation", benchmark: "backend", config: {} } });
    await ensureEpisodes(db.prisma, played.id, [taskId], 1);
    await ensureEpisodes(db.prisma, evaluation.id, [taskId], 1);
    const episodeOf = async (runId: number) => (await db.prisma.episode.findFirstOrThrow({ where: { runId } })).id;
    expect(await store.sweet.coachMode(await episodeOf(played.id))).toBe(true);
    expect(await store.sweet.coachMode(await episodeOf(evaluation.id))).toBe(false);
    expect(await store.sweet.coachMode(999_999)).toBeNull();
  });
});
