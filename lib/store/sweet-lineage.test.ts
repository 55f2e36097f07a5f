import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { makeRunPair, type RunPair } from "../label/testing/run-pair";
import { startScriptedServer, type ScriptedServer } from "../../e2e/fixtures/scripted-model-server";
import { parseServerSpec } from "../colbench/server-spec";
import { OpenAICompatibleClient } from "../models/openai-client";
import { chatTemplate } from "../sweet/chat-template";
import { exportLineage, formDefaults, loadLineage } from "../sweet/lineage";
import { makeTrajectoryPairs, makeTurnPairs, rankCandidates, sampleCandidates } from "../sweet/pipeline";
import { storeFor, type Store } from ".";

// Each SWEET-RL step records what made its output (`SweetStep` rows), and the records read back:
// through the store's two statements, and through the steps themselves against the scripted model
// server (real HTTP, real log-probs), on both databases.

const { backends, cleanup } = databaseBackends("sweet-lineage");
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server?.close();
  await cleanup();
});

const client = (model: string) =>
  new OpenAICompatibleClient(parseServerSpec(`${server.url}#${model}`), { giveUpMs: 5_000 });

describe.each(backends)("SWEET-RL lineage on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 3, prefix: "lineage" });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("keeps every start of a step, reads back each step's latest few, newest first, and forgets one", async () => {
    const ids: number[] = [];
    for (let n = 1; n <= 7; n++)
      ids.push((await store.sweet.recordStep(runs.b.id, "candidates", { via: "cli", n, policy: { model: "p" } })).id);
    await store.sweet.recordStep(runs.b.id, "rank", { via: "queue", critic: { model: "c", url: "http://x/v1" } });
    const rows = await store.sweet.steps(runs.b.id, 5);
    expect(rows.filter((r) => r.step === "candidates").map((r) => r.id)).toEqual(ids.slice(2).reverse());
    expect(rows.every((r) => r.runName === runs.b.name && r.createdAt instanceof Date)).toBe(true);
    const lineage = await loadLineage(store, runs.b.id);
    expect(lineage.candidates[0]).toMatchObject({
      id: ids[6],
      step: "candidates",
      run: { id: runs.b.id, name: runs.b.name },
      via: "cli",
      n: 7,
      policy: { model: "p" },
    });
    expect(lineage.rank[0]).toMatchObject({ via: "queue", critic: { model: "c", url: "http://x/v1" } });
    expect(lineage.pairs).toEqual([]);
    await store.sweet.forgetStep(ids[6]!);
    expect((await loadLineage(store, runs.b.id)).candidates[0]!.n).toBe(6);
  });

  it(
    "records the run, server, model, template and settings of each step; a start that stored nothing leaves none",
    { timeout: 120_000 },
    async () => {
      const template = chatTemplate("llama3");
      const run = { id: runs.a.id, name: runs.a.name };
      // A policy without log-probs fails before storing anything: no record names it.
      await expect(sampleCandidates(store, run.id, client("no-logprobs"), { n: 2, template })).rejects.toThrow();
      expect((await loadLineage(store, run.id)).candidates).toEqual([]);

      await sampleCandidates(store, run.id, client("logprobs"), { n: 2, template, via: "studio" });
      // Nothing left to sample: no second record.
      await sampleCandidates(store, run.id, client("logprobs"), { n: 2, template, via: "studio" });
      await rankCandidates(store, run.id, client("ask-then-answer"), { template });
      await makeTurnPairs(store, run.id, { pairsPerState: 2, seed: 3, order: "best-of-k" });
      await makeTrajectoryPairs(store, run.id, { groundTruth: true, via: "studio" });

      const lineage = await loadLineage(store, run.id);
      expect(lineage.candidates).toHaveLength(1);
      const [candidates] = lineage.candidates;
      expect(candidates).toMatchObject({
        step: "candidates",
        run,
        via: "studio",
        policy: { url: server.url, model: "logprobs" },
        template: "llama3",
        n: 2,
        fraction: 1,
        temperature: 1,
        maxTokens: 1024,
      });
      const [rank] = lineage.rank;
      expect(rank).toMatchObject({
        run,
        via: "cli",
        critic: { url: server.url, model: "ask-then-answer" },
        template: "llama3",
        groundTruth: true,
        sum: false,
      });
      expect(rank!.critic!.device).toBeUndefined();
      expect(lineage["turn-pairs"][0]).toMatchObject({
        run,
        pairsPerState: 2,
        seed: 3,
        pool: "samples",
        order: "best-of-k",
        from: { candidates: candidates!.id, rank: rank!.id },
      });
      expect(lineage.pairs[0]).toMatchObject({ run, via: "studio", rule: "backend-best-of-k", groundTruth: true });

      // The forms start from the records; the files say which records made their lines.
      expect(formDefaults(lineage)).toEqual({
        pairs: { groundTruth: true },
        candidates: { server: `${server.url}#logprobs`, n: 2 },
        rank: { server: `${server.url}#ask-then-answer`, groundTruth: true },
        "turn-pairs": { pairsPerState: 2, seed: 3, pool: "samples", order: "best-of-k" },
      });
      const policyFile = exportLineage(run, "trl-dpo", "llama3", lineage);
      expect(policyFile.steps.map((s) => s.id)).toEqual([candidates!.id, rank!.id, lineage["turn-pairs"][0]!.id]);
      expect(exportLineage(run, "openrlhf-critic", "llama3", lineage).steps.map((s) => s.step)).toEqual(["pairs"]);

      // The other run has records of its own only, and a deleted run takes its records with it.
      expect((await loadLineage(store, runs.b.id)).pairs).toEqual([]);
      await db.prisma.run.delete({ where: { id: runs.b.id } });
      expect(await store.sweet.steps(runs.b.id)).toEqual([]);
    },
  );
});
