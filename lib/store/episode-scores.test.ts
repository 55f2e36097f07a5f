import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { appendTurn, ensureEpisodes } from "./episodes";
import { episodeToScore, latestBrowserScores, saveBrowserScores, type BrowserScoringMeta } from "./episode-scores";
import { importTasks } from "./import-tasks";
import { recordRunRankSettings } from "./run-scoring";
import { insertCandidates, recordRunTemplate, scoreCandidates } from "./sweet";

// An episode scored by a browser: what it is given (the run's recorded template and rank settings
// with the turns), and how what comes back is kept: a record of its own, never over what rank stored.

let db: Database;
let episodeId: number;
let runId: number;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-episode-scores-"));
const prompt = [{ role: "user", content: "write f" }];

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  const run = await db.prisma.run.create({ data: { name: "browser", benchmark: "backend", config: {} } });
  runId = run.id;
  const task = await db.prisma.task.findFirstOrThrow();
  await ensureEpisodes(db.prisma, run.id, [task.id], 1);
  episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } })).id;
  for (const [index, role] of (["simulator", "agent", "simulator", "agent"] as const).entries()) {
    await appendTurn(db.prisma, episodeId, {
      index,
      role,
      content: `turn ${index}`,
      rawOutput: role === "agent" ? `OUTPUT: turn ${index}` : undefined,
      prompt: role === "agent" ? prompt : undefined,
    });
  }
  const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { episodeId, index: 1 } });
  await insertCandidates(
    db.prisma,
    turn1.id,
    [0, 1].map((index) => ({
      index,
      text: `candidate ${index}`,
      policyModel: "server",
      policyMean: -1,
      policySum: -2,
    })),
  );
}, 60_000);

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const meta = (over: Partial<BrowserScoringMeta> = {}): BrowserScoringMeta => ({
  device: "SwiftShader Device (Subzero) (software)",
  models: { critic: "critic-dir", policy: "policy-dir" },
  template: { ref: "llama3" },
  templateFrom: "critic",
  settings: { sum: false, groundTruth: true },
  settingsFrom: "default",
  ...over,
});

/** Everything rank writes, for comparing before and after. */
const ranked = async () => ({
  candidates: await db.prisma.candidate.findMany({
    orderBy: { id: "asc" },
    select: {
      id: true,
      criticModel: true,
      criticScore: true,
      policyModel: true,
      policyMean: true,
      policySum: true,
      advantage: true,
    },
  }),
  turns: await db.prisma.turn.findMany({
    where: { episodeId },
    orderBy: { index: "asc" },
    select: { index: true, advantage: true },
  }),
});

describe("an episode scored in a browser", () => {
  it("is given its agent turns' prompts, raw outputs and candidates, the task's final answer, and what the run recorded", async () => {
    const inputs = await episodeToScore(db.prisma, episodeId);
    const task = await db.prisma.task.findFirstOrThrow({ where: { episodes: { some: { id: episodeId } } } });
    expect(inputs).toEqual({
      episodeId,
      run: { id: runId, name: "browser" },
      template: null,
      settings: null,
      groundTruth: task.groundTruth,
      turns: [
        {
          index: 1,
          prompt,
          output: "OUTPUT: turn 1",
          candidates: [
            { index: 0, text: "candidate 0" },
            { index: 1, text: "candidate 1" },
          ],
        },
        { index: 3, prompt, output: "OUTPUT: turn 3", candidates: [] },
      ],
    });
    expect(await episodeToScore(db.prisma, 999_999)).toBeNull();
  });

  it("refuses a list naming a simulator turn or a missing candidate, and keeps nothing", async () => {
    const values = { criticScore: -1, policyMean: -2, policySum: -4, advantage: 1 };
    await expect(
      saveBrowserScores(db.prisma, episodeId, meta(), [
        { turn: 3, ...values },
        { turn: 2, ...values },
      ]),
    ).rejects.toThrow(`turns: turn 2 of episode ${episodeId} is the simulator's`);
    await expect(
      saveBrowserScores(db.prisma, episodeId, meta(), [{ turn: 1, ...values, candidates: [{ index: 7, ...values }] }]),
    ).rejects.toThrow("turns: turn 1 has no candidate 7");
    expect(await latestBrowserScores(db.prisma, episodeId)).toBeNull();
    expect((await ranked()).turns.map((t) => t.advantage)).toEqual([null, null, null, null]);
  });

  it("keeps a browser's scores as its own record with device and definition; what rank stored is unchanged and compared by model", async () => {
    // Rank has scored turn 1's candidates: candidate 0 by the served critic over the sampling server's policy log-probs.
    const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { episodeId, index: 1 } });
    const rows = await db.prisma.candidate.findMany({ where: { turnId: turn1.id }, orderBy: { index: "asc" } });
    await scoreCandidates(
      db.prisma,
      "critic-dir",
      rows.map((r, i) => ({ id: r.id, turnId: turn1.id, index: r.index, criticScore: -0.5 - i, advantage: 0.5 - i })),
    );
    await scoreCandidates(db.prisma, "critic-dir", [
      {
        id: rows[1]!.id,
        turnId: turn1.id,
        index: 1,
        criticScore: -1.5,
        advantage: -0.6,
        policy: { model: "policy-dir", mean: -0.9, sum: -2.7 },
      },
    ]);
    const before = await ranked();
    expect(before.turns.map((t) => t.advantage)).toEqual([null, 0.5, null, null]);

    const turns = [
      {
        turn: 1,
        criticScore: -0.5 + 2e-6,
        policyMean: -0.7,
        policySum: -1.4,
        advantage: 0.2,
        candidates: [
          { index: 0, criticScore: -0.5 + 2e-6, policyMean: -0.7, policySum: -1.4, advantage: 0.2 },
          { index: 1, criticScore: -1.5 - 3e-6, policyMean: -0.9, policySum: -2.7 + 1e-6, advantage: -0.6 - 4e-6 },
        ],
      },
      { turn: 3, criticScore: -0.1, policyMean: -0.4, policySum: -2, advantage: 0.3 },
    ];
    const saved = await saveBrowserScores(db.prisma, episodeId, meta(), turns);
    expect(saved).toMatchObject({ turns: 2, candidates: 2 });
    // Candidate 0's policy log-probs are the sampling server's: neither they nor its advantage are compared.
    expect(saved.comparison.compared).toEqual({ critic: 2, policy: 2, advantage: 1 });
    expect(saved.comparison.max.critic).toBeCloseTo(3e-6, 12);
    expect(saved.comparison.max.advantage).toBeCloseTo(4e-6, 12);
    expect(saved.comparison.maxRelative).toBeCloseTo(4e-6, 12);
    expect(saved.comparison.worst).toMatchObject({ turn: 1, candidate: 1, value: "advantage" });
    expect(saved.comparison.otherModels).toEqual({ critics: [], policies: ["server"] });
    expect(saved.comparison.unranked).toBe(1);

    expect(await ranked()).toEqual(before);
    const record = await latestBrowserScores(db.prisma, episodeId);
    expect(record).toMatchObject({
      id: saved.id,
      device: "SwiftShader Device (Subzero) (software)",
      criticModel: "critic-dir",
      policyModel: "policy-dir",
      template: { ref: "llama3" },
      templateFrom: "critic",
      settings: { sum: false, groundTruth: true },
      settingsFrom: "default",
      turns,
    });
  });

  it("is given the run's recorded template and settings (no final answer when the ranking leaves it out), and refuses scores computed otherwise", async () => {
    const template = {
      ref: "some/model",
      chatTemplate: "{{ bos_token }}{% for m in messages %}{{ m.content }}{{ eos_token }}{% endfor %}",
      specialTokens: { bos_token: "<s>", eos_token: "</s>" },
      assistantHeader: "",
      assistantHeaderTokens: 0,
      date: "2026-11-28",
    };
    await recordRunTemplate(db.prisma, runId, template);
    await recordRunRankSettings(db.prisma, runId, { sum: true, groundTruth: false });
    const inputs = await episodeToScore(db.prisma, episodeId);
    expect(inputs).toMatchObject({ template, settings: { sum: true, groundTruth: false }, groundTruth: null });

    const before = await ranked();
    const count = await db.prisma.browserScoring.count();
    const turns = [{ turn: 3, criticScore: -0.1, policyMean: -0.4, policySum: -2, advantage: 0.3 }];
    await expect(
      saveBrowserScores(
        db.prisma,
        episodeId,
        meta({ template: { ...template, date: "2026-11-29" }, settings: { sum: true, groundTruth: false } }),
        turns,
      ),
    ).rejects.toThrow(/writes its strings in the chat template model \(the model's own, dated 2026-11-28\)/);
    await expect(
      saveBrowserScores(db.prisma, episodeId, meta({ template, settings: { sum: false, groundTruth: false } }), turns),
    ).rejects.toThrow(
      "is ranked with summed log-probs, without the final answer; these scores were computed with mean log-probs, without the final answer",
    );
    expect(await db.prisma.browserScoring.count()).toBe(count);
    await saveBrowserScores(
      db.prisma,
      episodeId,
      meta({ template, templateFrom: "run", settings: { sum: true, groundTruth: false }, settingsFrom: "run" }),
      turns,
    );
    expect(await db.prisma.browserScoring.count()).toBe(count + 1);
    expect(await ranked()).toEqual(before);
  });
});
