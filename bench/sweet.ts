// SWEET-RL at scale: candidates and critic ranking for 1000 agent turns x 16 candidates against the
// scripted model server (its own process), at concurrency 64. The peer is a bare loop that sends
// the very same HTTP requests and keeps nothing; the studio's overhead per candidate is the
// difference in wall time divided by the candidates made (database writes, bookkeeping).
//
//   npx tsx bench/sweet.ts [states=1000] [n=16] [concurrency=64]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/open";
import { projectRoot } from "../lib/paths";
import { spawnScriptedServer } from "./scripted-server";
import { storeFor } from "../lib/store";
import { createRun } from "../lib/runs/create";
import { processOwner } from "../lib/runs/owner";
import { OpenAICompatibleClient } from "../lib/models/openai-client";
import { chatTemplate, promptText } from "../lib/sweet/chat-template";
import { criticPrompt } from "../lib/sweet/critic";
import { rankCandidates, sampleCandidates } from "../lib/sweet/pipeline";

const states = Number(process.argv[2] ?? 1000);
const n = Number(process.argv[3] ?? 16);
const concurrency = Number(process.argv[4] ?? 64);
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-sweet-"));
const server = await spawnScriptedServer(["--port", "0", "--tasks", taskFile]);
const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
try {
  const store = storeFor(db.prisma);
  await store.tasks.import({ file: taskFile, benchmark: "backend", name: "bench" });
  const spec = { baseUrl: server.url, model: "ask-then-answer" };
  const taskCount = (await store.tasks.counts()).byBenchmark.backend;
  const bestOf = Math.ceil(states / taskCount);
  const run = await createRun(store, {
    benchmark: "backend",
    selector: "all",
    bestOf,
    agent: spec,
    simulator: spec,
    name: "bench",
  });
  await store.episodes.ensure(run.id, run.config.taskIds, bestOf);
  // One agent turn per episode: the task's description, then the agent's first question.
  const episodes = (await store.episodes.unfinished(run.id)).slice(0, states);
  for (const e of episodes) {
    await store.episodes.claim(e.id, processOwner(), 60_000);
    const prompt = [
      { role: "system", content: run.config.prompts.agent.slice(0, 2000) },
      { role: "user", content: e.task.problemDescription },
    ];
    await store.episodes.appendTurn(e.id, { index: 0, role: "simulator", content: e.task.problemDescription });
    await store.episodes.appendTurn(e.id, {
      index: 1,
      role: "agent",
      content: "Could you tell me more?",
      rawOutput: "OUTPUT: Could you tell me more?",
      prompt,
    });
    await store.episodes.finish(e.id, { answer: null, reward: 0, details: null });
  }
  const stateRows = await store.sweet.states(run.id);
  console.log(
    `${stateRows.length} states x ${n} candidates (+ each turn's own output), concurrency ${concurrency}, server ${server.url}`,
  );

  // Peer: the same requests from a bare client, nothing stored.
  const client = new OpenAICompatibleClient(spec, { concurrency });
  const template = chatTemplate("llama3");
  const peer0 = performance.now();
  const samples = await Promise.all(
    stateRows.map(async (s) => {
      const messages = s.prompt as Array<{ role: "system" | "user"; content: string }>;
      const [, sampled] = await Promise.all([
        client.textLogprobs(promptText(template, messages), s.output),
        client.sample({ messages, temperature: 1, maxTokens: 1024 }, n),
      ]);
      return { s, texts: [s.output, ...sampled.map((x) => x.text)] };
    }),
  );
  await Promise.all(
    samples.flatMap(({ s, texts }) =>
      texts.map((t) => client.promptLogprobs(criticPrompt(template, s.groundTruth, promptText(template, s.prompt), t))),
    ),
  );
  const peerMs = performance.now() - peer0;

  const policy = new OpenAICompatibleClient(spec, { concurrency });
  const studio0 = performance.now();
  const sampled = await sampleCandidates(store, run.id, policy, { n, template });
  const ranked = await rankCandidates(store, run.id, policy, { template });
  const studioMs = performance.now() - studio0;

  const candidates = sampled.candidates;
  console.log(`peer (bare requests): ${(peerMs / 1000).toFixed(2)} s`);
  console.log(
    `studio (candidates + rank, stored): ${(studioMs / 1000).toFixed(2)} s; ${candidates} candidates, ${ranked.ranked} ranked`,
  );
  console.log(`ratio studio/peer: ${(studioMs / peerMs).toFixed(3)}`);
  console.log(
    `studio overhead per candidate (wall minus the peer's): ${((studioMs - peerMs) / candidates).toFixed(3)} ms`,
  );
} finally {
  await db.close();
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
