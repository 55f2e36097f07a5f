import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { openLocalGenerator } from "../lib/gpu/node/local-generator";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// `colbench run --agent local:MODEL` through the real binary: the committed tiny Llama generates
// the agent's turns in the process (WebGPU through Dawn; a software adapter here) against the
// scripted simulator; the run records the local model, and each agent turn is what the generator
// (on the CPU path) writes for the prompt stored with it.

const model = path.join(projectRoot, "lib", "gpu", "fixtures", "llama-tiny");
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-run-local-"));
let server: ScriptedServer;

const colbench = (args: string[]) => runColbench(dataDir, args);

async function withDb<T>(use: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

const runArgs = (name: string, extra: string[]) => [
  "run",
  "--benchmark",
  "backend",
  "--tasks",
  "ids=1",
  "--name",
  name,
  "--agent",
  `local:${model}`,
  "--simulator",
  `${server.url}#simulator`,
  "--agent-prompt",
  path.join(dataDir, "agent-prompt.txt"),
  "--max-tokens",
  "12",
  ...extra,
];

async function agentTurns(run: string) {
  return withDb(async (db) => {
    const row = await db.prisma.run.findFirstOrThrow({ where: { name: run } });
    const turns = await db.prisma.turn.findMany({
      where: { episode: { runId: row.id }, role: "agent" },
      orderBy: [{ episodeId: "asc" }, { index: "asc" }],
    });
    const episodes = await db.prisma.episode.findMany({ where: { runId: row.id } });
    return { config: row.config as { agent: unknown; sampling: unknown }, turns, episodes };
  });
}

beforeAll(async () => {
  const tasks = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  server = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
  expect((await colbench(["import", taskFile, "--benchmark", "backend"])).status).toBe(0);
  // A short agent prompt keeps prompts short: software WebGPU is slow.
  fs.writeFileSync(path.join(dataDir, "agent-prompt.txt"), "Write the function the human asks for.");
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("colbench run --agent local:MODEL", () => {
  it("plays the agent in the process, records the local model, and its turns are the generator's", async () => {
    const result = await colbench(runArgs("greedy", ["--temperature", "0"]));
    expect(result.status, result.stderr).toBe(0);
    const { config, turns, episodes } = await agentTurns("greedy");
    expect(config.agent).toEqual({ local: { model, device: "webgpu", template: "llama3", topP: 1, seed: 0 } });
    expect(config.sampling).toMatchObject({ temperature: 0, maxTokens: 12 });
    expect(episodes.every((e) => e.status === "done")).toBe(true);
    expect(turns.length).toBeGreaterThan(1);
    const generator = await openLocalGenerator(model, { device: "cpu" });
    for (const turn of turns.slice(0, 3)) {
      const messages = turn.prompt as Array<{ role: string; content: string }>;
      expect(messages[0]).toEqual({ role: "system", content: "Write the function the human asks for." });
      const again = await generator.chat(messages, { maxNewTokens: 12 });
      expect(turn.rawOutput).toBe(again.text.replaceAll("\u0000", "\uFFFD"));
      expect(turn.usage).toMatchObject({ completionTokens: again.ids.length });
    }
  }, 300_000);

  it("samples with the run's seed: a rerun draws the same turns, another seed others", async () => {
    const sampled = ["--temperature", "1.2", "--top-p", "0.9"];
    for (const [name, seed] of [
      ["seed-5", "5"],
      ["seed-5-again", "5"],
      ["seed-6", "6"],
    ] as const) {
      const result = await colbench(runArgs(name, [...sampled, "--seed", seed, "--agent-device", "cpu"]));
      expect(result.status, result.stderr).toBe(0);
    }
    const texts = async (run: string) => (await agentTurns(run)).turns.map((t) => t.rawOutput);
    expect((await agentTurns("seed-5")).config.agent).toMatchObject({ local: { device: "cpu", topP: 0.9, seed: 5 } });
    expect(await texts("seed-5-again")).toEqual(await texts("seed-5"));
    expect(await texts("seed-6")).not.toEqual(await texts("seed-5"));
  }, 300_000);

  it("refuses a model without a chat template before the run is made", async () => {
    const bare = path.join(dataDir, "no-template");
    fs.cpSync(model, bare, { recursive: true });
    const config = JSON.parse(fs.readFileSync(path.join(bare, "tokenizer_config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    delete config.chat_template;
    fs.writeFileSync(path.join(bare, "tokenizer_config.json"), JSON.stringify(config));
    const result = await colbench([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=1",
      "--agent",
      `local:${bare}`,
      "--simulator",
      `${server.url}#simulator`,
    ]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("no chat_template");
  }, 120_000);
});
