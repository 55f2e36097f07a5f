import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeFor } from "../store";
import { openDatabase, type Database } from "../db/open";
import { importTasks } from "../store/import-tasks";
import { exportOfficial, importTrajectories } from "../store/trajectories";
import { projectRoot, sharedColbenchDir } from "../paths";
import { parseServerSpec } from "../colbench/server-spec";
import { startScriptedServer, type ScriptedServer } from "../../e2e/fixtures/scripted-model-server";
import { createRun } from "./create";
import { executeRun } from "./runner";
import { modelServices } from "./services";
import { backendRuntime, openBackendScorer } from "../benchmarks/backend/runtime";
import type { OpenScorer } from "../benchmarks/scorer";

// Runs against a scripted OpenAI-compatible server over real HTTP, stored in PGlite, scored by the
// Python sandbox: the same path `colbench run` takes.

const officialBackend = path.join(sharedColbenchDir(), "backend_test.jsonl");
// The official set when this workspace has it (50 real tasks), else the project's own samples.
const taskFile = fs.existsSync(officialBackend) ? officialBackend : path.join(projectRoot, "samples", "backend.jsonl");

let db: Database;
let server: ScriptedServer;
let scorer: OpenScorer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-runs-"));
const spec = (model: string) => parseServerSpec(`${server.url}#${model}`);
// Quick retries: the scripted server's failures are deliberate.
const services = () => modelServices(backendRuntime, scorer, {}, { backoffMs: 5, maxRetries: 3 });

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, { file: taskFile, benchmark: "backend", name: "tasks" });
  const tasks = await db.prisma.task.findMany({ select: { problemDescription: true, groundTruth: true } });
  server = await startScriptedServer({ tasks, slowMs: 50 });
  scorer = await openBackendScorer();
});

afterAll(async () => {
  await scorer?.close();
  await server?.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function lines(runId: number) {
  const out: string[] = [];
  for await (const t of exportOfficial(db.prisma, runId)) out.push(JSON.stringify(t));
  return out;
}

describe("a backend run against a scripted model server", () => {
  let runId: number;
  const limit = fs.existsSync(officialBackend) ? 50 : 14;

  it(`plays, stores and scores ${limit} episodes`, async () => {
    const run = await createRun(storeFor(db.prisma), {
      benchmark: "backend",
      selector: "all",
      limit,
      agent: spec("ask-then-answer"),
      simulator: spec("simulator"),
      concurrency: 8,
      name: "fifty",
    });
    runId = run.id;
    const stats = await executeRun(storeFor(db.prisma), run.id, services());
    expect(stats.counts).toMatchObject({ total: limit, done: limit, failed: 0 });
    // Two questions, two replies, the answer: 6 turns with the opening description.
    expect(stats.turns).toBe(limit * 6);
    const episodes = await db.prisma.episode.findMany({
      where: { runId },
      include: { turns: { orderBy: { index: "asc" } }, task: true },
    });
    const first = episodes[0]!;
    expect(first.turns.map((t) => t.role)).toEqual(["simulator", "agent", "simulator", "agent", "simulator", "agent"]);
    expect(first.turns[0]!.content).toBe(first.task.problemDescription);
    expect(first.answer?.trim()).toBe(first.task.groundTruth.trim());
    // The simulator was given the hidden information; the agent's prompt never was.
    // (The body's end: its first line is the signature, which the description states openly.)
    const body = JSON.stringify(first.task.groundTruth.trim().slice(-60)).slice(1, -1);
    expect(JSON.stringify(first.turns[2]!.prompt)).toContain(body);
    expect(JSON.stringify(first.turns[3]!.prompt)).not.toContain(body);
    // The ground truth scores 1.0 on (nearly) every task; the benchmark's own broken tasks excepted.
    const perfect = episodes.filter((e) => e.reward === 1).length;
    expect(perfect).toBeGreaterThanOrEqual(limit - 1);
    expect((first.details as { tests: unknown[] }).tests.length).toBeGreaterThan(0);
    const run2 = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run2.status).toBe("done");
  });

  it("exports the official format and re-imports it to identical episodes", async () => {
    const exported = await lines(runId);
    expect(exported).toHaveLength(limit);
    const record = JSON.parse(exported[0]!) as {
      task: { problem_description: string };
      dialogue_history: Array<Record<string, unknown>>;
    };
    expect(Object.keys(record)).toEqual(["task", "dialogue_history", "answer", "reward"]);
    expect(record.dialogue_history[0]).toEqual({ role: "user", content: record.task.problem_description });
    expect(Object.keys(record.dialogue_history[1]!)).toEqual(["role", "content", "input", "output"]);
    const file = path.join(dir, "fifty.jsonl");
    fs.writeFileSync(file, exported.join("\n") + "\n");
    const imported = await importTrajectories(db.prisma, file, { name: "fifty-again" });
    expect(imported).toMatchObject({ episodes: limit, tasksCreated: 0, problems: [] });
    expect(await lines(imported.runId)).toEqual(exported);
  });

  it("is a no-op to run a finished run again", async () => {
    const stats = await executeRun(storeFor(db.prisma), runId, services());
    expect(stats.episodes).toBe(0);
    expect(stats.counts.done).toBe(limit);
  });
});

describe("prompts", () => {
  it("records the prompt text a run used, from a user's file or the defaults", async () => {
    const file = path.join(dir, "my-agent-prompt.txt");
    fs.writeFileSync(file, "Ask one question, then answer with I WANT TO ANSWER:");
    const run = await createRun(storeFor(db.prisma), {
      benchmark: "backend",
      selector: "ids=1",
      agent: spec("echo"),
      simulator: spec("simulator"),
      promptFiles: { agent: file },
      name: "custom-prompt",
    });
    expect(run.config.prompts.agent).toBe("Ask one question, then answer with I WANT TO ANSWER:");
    expect(run.config.promptSources).toEqual({ agent: file, simulator: "default" });
    expect(run.config.prompts.simulator).toContain("{hidden_information}");
    await expect(
      createRun(storeFor(db.prisma), {
        benchmark: "backend",
        selector: "ids=1",
        agent: spec("echo"),
        simulator: spec("simulator"),
        promptFiles: { simulator: "/no/such/file" },
        name: "missing-prompt",
      }),
    ).rejects.toThrow("/no/such/file: no such prompt file (--simulator-prompt)");
    await expect(
      createRun(storeFor(db.prisma), {
        benchmark: "backend",
        selector: "ids=999999",
        agent: spec("echo"),
        simulator: spec("simulator"),
      }),
    ).rejects.toThrow(/selects no backend task/);
  });
});

describe("agents and servers that misbehave", () => {
  const small = async (name: string, agent: string, simulator = "simulator", bestOf = 1) => {
    const run = await createRun(storeFor(db.prisma), {
      benchmark: "backend",
      selector: "all",
      limit: 3,
      bestOf,
      agent: spec(agent),
      simulator: spec(simulator),
      concurrency: 3,
      name,
    });
    return { run, stats: await executeRun(storeFor(db.prisma), run.id, services()) };
  };

  it("ends an agent that never answers after 10 turns, taking its last message as the answer", async () => {
    const { run, stats } = await small("never", "never-answer");
    expect(stats.counts.done).toBe(3);
    const episode = await db.prisma.episode.findFirstOrThrow({
      where: { runId: run.id },
      include: { turns: { orderBy: { index: "asc" } } },
    });
    expect(episode.turns).toHaveLength(20);
    expect(episode.answer).toBe(episode.turns[19]!.content);
    expect(episode.reward).toBe(0);
  });

  it("retries 500s and 429s until the server recovers", async () => {
    const flaky = await small("flaky", "flaky:2");
    expect(flaky.stats.counts).toMatchObject({ done: 3, failed: 0 });
    const limited = await small("limited", "rate-limited:1");
    expect(limited.stats.counts).toMatchObject({ done: 3, failed: 0 });
  });

  it("marks episodes whose server keeps answering garbage as failed, with the reason, and keeps the rest", async () => {
    const { run, stats } = await small("malformed", "malformed");
    expect(stats.counts).toMatchObject({ total: 3, failed: 3, done: 0 });
    const episode = await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } });
    expect((episode.details as { error: string }).error).toMatch(/malformed answer|not JSON/);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("failed");
  });

  it("cuts long simulator replies to 400 characters and plays k samples per task", async () => {
    const { run, stats } = await small("long", "ask-then-answer", "simulator:long", 2);
    expect(stats.counts).toMatchObject({ total: 6, done: 6 });
    const replies = await db.prisma.turn.findMany({
      where: { episode: { runId: run.id }, role: "simulator", index: { gt: 0 } },
    });
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      expect(reply.content.length).toBeLessThanOrEqual(400);
      expect(reply.rawOutput!.length).toBeGreaterThan(400);
    }
    const perTask = await db.prisma.episode.groupBy({
      by: ["taskId"],
      where: { runId: run.id },
      _count: { _all: true },
    });
    expect(perTask.map((g) => g._count._all)).toEqual([2, 2, 2]);
  });
});

describe("two players of one run", () => {
  it("play each episode once between them, and one waits for the other's episodes instead of playing them again", async () => {
    const store = storeFor(db.prisma);
    const run = await createRun(store, {
      benchmark: "backend",
      selector: "all",
      limit: 12,
      agent: spec("slow:30"),
      simulator: spec("simulator"),
      concurrency: 3,
      name: "two-players",
    });
    const turnsHeard: string[] = [];
    const publish = (event: { type: string; episodeId?: number; index?: number }) => {
      if (event.type === "turn") turnsHeard.push(`${event.episodeId}:${event.index}`);
    };
    const [a, b] = await Promise.all([
      executeRun(store, run.id, services(), { owner: "player-a", publish }),
      executeRun(store, run.id, services(), { owner: "player-b", publish }),
    ]);
    expect(a.episodes + b.episodes).toBe(12);
    expect(a.episodes).toBeGreaterThan(0);
    expect(b.episodes).toBeGreaterThan(0);
    expect(a.counts).toMatchObject({ total: 12, done: 12, failed: 0 });
    expect(b.counts).toMatchObject({ total: 12, done: 12, failed: 0 });
    // No turn was played twice: each (episode, index) was announced once.
    expect(new Set(turnsHeard).size).toBe(turnsHeard.length);
    expect(turnsHeard).toHaveLength(12 * 6);
    const claimedBy = await db.prisma.episode.groupBy({
      by: ["claimedBy"],
      where: { runId: run.id },
      _count: { _all: true },
    });
    expect(claimedBy.map((g) => g.claimedBy).sort()).toEqual(["player-a", "player-b"]);
  });
});
