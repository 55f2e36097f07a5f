// How much the studio itself costs per turn when it plays 1000 backend episodes at concurrency 64
// against a scripted OpenAI-compatible server (its own process, over loopback HTTP).
//
// Peer, measured in the same run: the bare protocol loop — the same episodes, the same HTTP calls
// through the same client, but no database, no events, no scoring. The studio's own overhead per
// turn is the difference in this process's CPU time per turn; wall times are printed too.
//
//   npx tsx bench/orchestration.ts [episodes=1000] [concurrency=64]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { storeFor } from "../lib/store";
import { openDatabase } from "../lib/db/open";
import { importTasks } from "../lib/store/import-tasks";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { spawnScriptedServer } from "./scripted-server";
import { parseServerSpec } from "../lib/colbench/server-spec";
import { createRun } from "../lib/runs/create";
import { executeRun } from "../lib/runs/runner";
import { modelServices } from "../lib/runs/services";
import { backend } from "../lib/benchmarks/backend";
import { backendRuntime, openBackendScorer } from "../lib/benchmarks/backend/runtime";
import { runEpisode } from "../lib/colbench/episode";
import { ModelAgent, ModelCodeSimulator } from "../lib/models/model-roles";
import { OpenAICompatibleClient } from "../lib/models/openai-client";
import { loadPrompts } from "../lib/benchmarks/prompts";
import type { HiddenTask } from "../lib/colbench/roles";
import type { TestCase } from "../lib/colbench/tasks";

const episodes = Number(process.argv[2] ?? 1000);
const concurrency = Number(process.argv[3] ?? 64);
const official = path.join(sharedColbenchDir(), "backend_test.jsonl");
const taskFile = fs.existsSync(official) ? official : path.join(projectRoot, "samples", "backend.jsonl");
if (!fs.existsSync(official)) console.log(`note: ${official} is absent; using the project's samples (with repeats)`);

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-orch-"));
const server = await spawnScriptedServer(["--port", "0", "--tasks", taskFile, "--slow-ms", "0"]);
const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
try {
  await importTasks(db.prisma, { file: taskFile, benchmark: "backend", name: "bench" });
  const taskCount = await db.prisma.task.count();
  const bestOf = Math.ceil(episodes / taskCount);
  const limit = Math.ceil(episodes / bestOf);
  const spec = (model: string) => parseServerSpec(`${server.url}#${model}`);

  // Peer: the bare protocol loop over the same tasks and the same number of episodes.
  const rows = await db.prisma.task.findMany({ orderBy: { id: "asc" }, take: limit });
  const tasks: HiddenTask[] = rows.map((r) => ({ ...r, testCases: r.testCases as TestCase[] | null }));
  const prompts = loadPrompts("backend");
  const agent = new ModelAgent(new OpenAICompatibleClient(spec("ask-then-answer"), { concurrency }), prompts.agent);
  const simulator = new ModelCodeSimulator(
    new OpenAICompatibleClient(spec("simulator"), { concurrency }),
    prompts.simulator,
  );
  const jobs = Array.from({ length: limit * bestOf }, (_, i) => tasks[i % tasks.length]!);
  let peerTurns = 0;
  let next = 0;
  const peerCpu0 = cpuMs();
  const peerWall0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const outcome = await runEpisode({
          task: jobs[next++]!,
          rules: backend.episode,
          agent,
          simulator,
          persist: async () => {},
        });
        peerTurns += outcome.turns.length;
      }
    }),
  );
  const peerWall = performance.now() - peerWall0;
  const peerCpu = cpuMs() - peerCpu0;

  // The studio: the same episodes as a run, every turn stored in PGlite, every answer scored.
  const scorer = await openBackendScorer();
  const run = await createRun(storeFor(db.prisma), {
    benchmark: "backend",
    selector: "all",
    limit,
    bestOf,
    agent: spec("ask-then-answer"),
    simulator: spec("simulator"),
    concurrency,
    name: "bench",
  });
  const cpu0 = cpuMs();
  const stats = await executeRun(storeFor(db.prisma), run.id, modelServices(backendRuntime, scorer));
  const studioCpu = cpuMs() - cpu0;
  await scorer.close();

  const perTurn = (ms: number, turns: number) => (ms / turns).toFixed(3);
  console.log(
    `episodes: ${stats.counts.done} done, ${stats.counts.failed} failed, ${stats.turns} turns (concurrency ${concurrency})`,
  );
  console.log(
    `peer  (bare protocol loop): wall ${(peerWall / 1000).toFixed(2)} s, ${(jobs.length / (peerWall / 1000)).toFixed(1)} episodes/s, CPU ${perTurn(peerCpu, peerTurns)} ms/turn`,
  );
  console.log(
    `studio (stored + scored):   wall ${(stats.wallMs / 1000).toFixed(2)} s, ${(stats.counts.done / (stats.wallMs / 1000)).toFixed(1)} episodes/s, CPU ${perTurn(studioCpu, stats.turns)} ms/turn` +
      ` (scoring ${(stats.scoreMs / stats.episodes).toFixed(1)} ms/episode summed over overlapping episodes)`,
  );
  console.log(
    `studio overhead per turn (CPU, studio minus peer): ${(studioCpu / stats.turns - peerCpu / peerTurns).toFixed(3)} ms`,
  );
  console.log(
    `studio overhead per turn (wall, studio minus peer): ${((stats.wallMs - peerWall) / stats.turns).toFixed(3)} ms`,
  );
  console.log(`wall ratio studio/peer: ${(stats.wallMs / peerWall).toFixed(2)}`);
} finally {
  await db.close();
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
