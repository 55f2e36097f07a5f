import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { appendTurn, ensureEpisodes } from "../store/episodes";
import { episodeToScore } from "../store/episode-scores";
import { importTasks } from "../store/import-tasks";
import { chatTemplate, promptText } from "../sweet/chat-template";
import { criticPrompt, criticScore } from "../sweet/critic";
import { rankCandidates } from "../sweet/pipeline";
import { rankSettingsForRun, templateForRun } from "../sweet/run-template";
import { scoringDefinition } from "../sweet/scoring-definition";
import { CpuModel } from "./model/cpu-model";
import { LocalScorer } from "./model/scorer";
import { ModelTokenizer } from "./model/tokenizer";
import { folderSource } from "./node/folder-source";
import { scoreEpisode } from "./score-episode";

// What the replay's "score turns in this browser" computes, on the CPU path. First the rules: a turn
// with candidates is scored candidate by candidate, a turn without them by its own output; each number
// is what the SWEET-RL rules give one prompt at a time. Then the definition: runs whose template is a
// model's own (a default system message, a dated header, plain blocks) ranked with and without --sum
// and the final answer; the browser's inputs and definition reproduce every stored value exactly,
// and the hand-written fallback the replay used to score with does not.

const fixtures = path.resolve(import.meta.dirname, "fixtures");
const templates = path.join(projectRoot, "lib", "sweet", "fixtures", "chat-templates");
let critic: LocalScorer;
let policy: LocalScorer;
const open = async (name: string) => {
  const source = folderSource(path.join(fixtures, name));
  return new LocalScorer(await CpuModel.load(source), await ModelTokenizer.load(source), name);
};

beforeAll(async () => {
  critic = await open("llama-tiny");
  policy = await open("llama-tiny-bf16");
});

describe("scoreEpisode", () => {
  it("scores turns without candidates by their output, and turns with them candidate by candidate", async () => {
    const prompt = [{ role: "user", content: "Write f, please." }];
    const inputs = {
      episodeId: 1,
      run: null,
      template: null,
      settings: null,
      groundTruth: "def f(): return 1",
      turns: [
        { index: 1, prompt, output: "OUTPUT: what should f return?", candidates: [] },
        {
          index: 3,
          prompt,
          output: "OUTPUT: def f(): return 1",
          candidates: [
            { index: 0, text: "OUTPUT: def f(): return 1" },
            { index: 1, text: "OUTPUT: def f(): return 2" },
          ],
        },
      ],
    };
    const ticks: number[] = [];
    const definition = scoringDefinition(inputs, critic.tokenizer.templateFamily());
    expect(definition).toMatchObject({
      templateFrom: "critic",
      settings: { sum: false, groundTruth: true },
      settingsFrom: "default",
    });
    const scored = await scoreEpisode(inputs, critic, policy, { definition, onTurn: (done) => ticks.push(done) });
    expect(ticks).toEqual([0, 1, 2]);
    const llama = chatTemplate("llama3");
    const one = async (text: string) => {
      const input = promptText(llama, prompt);
      const c = criticScore(llama, await critic.promptLogprobs(criticPrompt(llama, inputs.groundTruth, input, text)));
      const own = await policy.textLogprobs(input, text);
      const mean = own.tokens.reduce((a, t) => a + t.logprob, 0) / own.tokens.length;
      return { criticScore: c, policyMean: mean, advantage: c - mean };
    };
    expect(scored[0]!.candidates).toBeUndefined();
    const want0 = await one(inputs.turns[0]!.output);
    expect(scored[0]!.turn).toBe(1);
    expect(scored[0]!.criticScore).toBeCloseTo(want0.criticScore, 9);
    expect(scored[0]!.policyMean).toBeCloseTo(want0.policyMean, 9);
    expect(scored[0]!.advantage).toBeCloseTo(want0.advantage, 9);
    expect(scored[1]!.candidates).toHaveLength(2);
    for (const c of scored[1]!.candidates!) {
      const want = await one(inputs.turns[1]!.candidates[c.index]!.text);
      expect(c.advantage).toBeCloseTo(want.advantage, 9);
    }
    // The turn's own advantage is its candidate 0's; the two candidates differ.
    expect(scored[1]!.advantage).toBe(scored[1]!.candidates![0]!.advantage);
    expect(scored[1]!.candidates![0]!.advantage).not.toBeCloseTo(scored[1]!.candidates![1]!.advantage!, 3);
  });
});

describe("a ranked run's turns scored outside rank", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-score-episode-"));
  let db: Database;
  let store: Store;
  let taskId: number;
  const prompt = (n: number) => [
    { role: "system", content: "You write small Python functions and ask before guessing." },
    { role: "user", content: `Write f${n}: it returns the number of vowels in a string.` },
  ];

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    store = storeFor(db.prisma);
    await importTasks(db.prisma, {
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "samples",
    });
    taskId = (await db.prisma.task.findFirstOrThrow()).id;
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A run of one episode, two agent turns with three candidates each (as `candidates` stores them). */
  async function run(name: string): Promise<{ runId: number; episodeId: number }> {
    const { id: runId } = await db.prisma.run.create({ data: { name, benchmark: "backend", config: {} } });
    await ensureEpisodes(db.prisma, runId, [taskId], 1);
    const episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId } })).id;
    for (const [index, role] of (["simulator", "agent", "simulator", "agent"] as const).entries()) {
      await appendTurn(db.prisma, episodeId, {
        index,
        role,
        content: `turn ${index}`,
        rawOutput: role === "agent" ? `OUTPUT: turn ${index}` : undefined,
        prompt: role === "agent" ? prompt(index) : undefined,
      });
    }
    for (const turn of await db.prisma.turn.findMany({ where: { episodeId, role: "agent" } })) {
      await store.sweet.insertCandidates(
        turn.id,
        [0, 1, 2].map((index) => ({
          index,
          text: index ? `OUTPUT: def f(s): return ${index}` : `OUTPUT: turn ${turn.index}`,
          policyModel: "server",
          policyMean: -1,
          policySum: -9,
        })),
      );
    }
    return { runId, episodeId };
  }

  const cases: Array<[string, { sum: boolean; groundTruth: boolean }]> = [
    ["default-system", { sum: true, groundTruth: true }],
    ["dated-header", { sum: false, groundTruth: false }],
    ["plain-blocks", { sum: true, groundTruth: false }],
  ];
  for (const [fixture, settings] of cases) {
    it(
      `${fixture}, ${settings.sum ? "--sum" : "mean"}${settings.groundTruth ? "" : " --no-ground-truth"}: the browser's inputs and definition give rank's stored values exactly`,
      { timeout: 120_000 },
      async () => {
        const { runId, episodeId } = await run(fixture);
        const template = await templateForRun(store, runId, path.join(templates, fixture));
        await rankCandidates(store, runId, critic, { template, ...settings, policy });

        const inputs = (await episodeToScore(db.prisma, episodeId))!;
        expect(inputs.settings).toEqual(settings);
        expect(inputs.template).toEqual(template.recorded);
        expect(inputs.groundTruth === null).toBe(!settings.groundTruth);
        const definition = scoringDefinition(inputs, critic.tokenizer.templateFamily());
        expect(definition.templateFrom).toBe("run");
        expect(definition.settingsFrom).toBe("run");
        const browser = await scoreEpisode(inputs, critic, policy, { definition });

        const stored = await store.sweet.ofEpisode(episodeId);
        const rows = await db.prisma.candidate.findMany({
          where: { turn: { episodeId } },
          select: {
            index: true,
            criticScore: true,
            policyMean: true,
            policySum: true,
            advantage: true,
            turn: { select: { index: true } },
          },
        });
        expect(rows).toHaveLength(6);
        for (const row of rows) {
          const ours = browser.find((t) => t.turn === row.turn.index)!.candidates!.find((c) => c.index === row.index)!;
          expect(
            {
              criticScore: ours.criticScore,
              policyMean: ours.policyMean,
              policySum: ours.policySum,
              advantage: ours.advantage,
            },
            `turn ${row.turn.index} candidate ${row.index}`,
          ).toEqual({
            criticScore: row.criticScore,
            policyMean: row.policyMean,
            policySum: row.policySum,
            advantage: row.advantage,
          });
        }
        expect(Object.keys(stored)).toHaveLength(2);

        // The fallback the replay scored every run with (and its defaults): other strings, other numbers.
        const fallback = await scoreEpisode({ ...inputs, groundTruth: inputs.groundTruth ?? "x" }, critic, policy, {
          definition: scoringDefinition({ template: null, settings: null }, critic.tokenizer.templateFamily()),
        });
        for (const row of rows) {
          const theirs = fallback
            .find((t) => t.turn === row.turn.index)!
            .candidates!.find((c) => c.index === row.index)!;
          expect(
            Math.abs(theirs.criticScore! - row.criticScore!),
            `fallback, turn ${row.turn.index} candidate ${row.index}`,
          ).toBeGreaterThan(1e-3);
        }
      },
    );
  }

  it(
    "records the first ranking's settings and refuses a later ranking asked for others, scoring nothing",
    { timeout: 60_000 },
    async () => {
      const { runId } = await run("settings");
      expect((await store.sweet.rankSettings(runId))!.rank).toBeNull();
      // Nothing to rank records nothing.
      const empty = await run("nothing-to-rank");
      await db.prisma.candidate.deleteMany({ where: { turn: { episode: { runId: empty.runId } } } });
      await rankCandidates(store, empty.runId, critic, { template: chatTemplate("llama3"), sum: true, policy });
      expect((await store.sweet.rankSettings(empty.runId))!.rank).toBeNull();

      await rankCandidates(store, runId, critic, { template: chatTemplate("llama3"), sum: true, policy });
      expect((await store.sweet.rankSettings(runId))!.rank).toEqual({ sum: true, groundTruth: true });
      await db.prisma.candidate.updateMany({
        where: { turn: { episode: { runId } }, index: 2 },
        data: { criticScore: null, advantage: null },
      });
      await expect(
        rankCandidates(store, runId, critic, { template: chatTemplate("llama3"), groundTruth: false, policy }),
      ).rejects.toThrow(
        "run settings is ranked with summed log-probs, with the final answer (recorded by its first ranking: --sum); mean log-probs, without the final answer would mix two. Give --sum",
      );
      expect(await db.prisma.candidate.count({ where: { turn: { episode: { runId } }, criticScore: null } })).toBe(2);
      await expect(
        rankSettingsForRun(store, runId, { sum: true, groundTruth: true }, { record: true }),
      ).resolves.toEqual({ sum: true, groundTruth: true });
    },
  );
});
