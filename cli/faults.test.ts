import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { openEventBus, type RunEvent } from "../lib/events";
import { startPostgres, type PostgresServer } from "../lib/db/testing/postgres-server";
import { projectRoot } from "../lib/paths";
import { runColbench, spawnColbench, type ColbenchProcess } from "./testing/colbench";
import {
  loadScriptedTasks,
  startScriptedServer,
  type ScriptedServer,
  type ScriptedTask,
} from "../e2e/fixtures/scripted-model-server";

// Faults a run over many machines must survive, each on its own run over `colbench worker`
// processes on a real PostgreSQL: a worker paused past its lease (woken after others finished its
// episodes, or while the new owner is mid-episode), the model server gone for 20 s, PostgreSQL
// restarted, two of three workers killed at once. After each: every episode exactly once and done,
// whole dialogues, the single-process runner's rewards, the queue empty, the run done by itself.

const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const TASKS = 4;
const K = 3;
const LEASE = 2;
const worker = (concurrency = 4) => [
  "worker",
  "--concurrency",
  String(concurrency),
  "--lease",
  String(LEASE),
  "--poll",
  "100",
  "--grace",
  "2",
];

let tasks: ScriptedTask[];
let server: ScriptedServer;
let postgres: PostgresServer;
let url: string;
let db: Database;
let expected: Map<string, number>;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-faults-"));
const spawned: ColbenchProcess[] = [];
const env = () => ({ env: { DATABASE_URL: url } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reward by task text of a run's episodes (ids differ between databases). */
async function rewardsOf(database: Database, runName: string): Promise<Map<string, number[]>> {
  const episodes = await database.prisma.episode.findMany({
    where: { run: { name: runName } },
    include: { task: { select: { problemDescription: true } } },
  });
  const out = new Map<string, number[]>();
  for (const e of episodes)
    out.set(e.task.problemDescription, [...(out.get(e.task.problemDescription) ?? []), e.reward ?? Number.NaN]);
  return out;
}

beforeAll(async () => {
  // Every third task's answer has its returns broken, so rewards differ between tasks.
  tasks = loadScriptedTasks(taskFile).map((t, i) =>
    i % 3 === 1 ? { ...t, groundTruth: t.groundTruth.replace(/return\b[^\n]*/g, "return None") } : t,
  );
  server = await startScriptedServer({ tasks });
  postgres = await startPostgres();
  url = await postgres.createDatabase("faults");
  const imported = await runColbench(scratch, ["import", taskFile, "--benchmark", "backend"], env());
  expect(imported.status, imported.stderr).toBe(0);
  db = await openDatabase({ url, migrate: false });
  // The reference: the same tasks through the single-process runner (embedded database).
  const single = path.join(scratch, "single");
  expect((await runColbench(single, ["import", taskFile, "--benchmark", "backend"])).status).toBe(0);
  const played = await runColbench(single, [
    "run",
    "--benchmark",
    "backend",
    "--tasks",
    "source=backend.jsonl",
    "--limit",
    String(TASKS),
    "--name",
    "single",
    "--agent",
    `${server.url}#ask-then-answer`,
    "--simulator",
    `${server.url}#simulator`,
  ]);
  expect(played.status, played.stderr).toBe(0);
  const local = await openDatabase({ pgliteDir: path.join(single, "db"), url: "" });
  try {
    expected = new Map([...(await rewardsOf(local, "single"))].map(([task, [reward]]) => [task, reward!]));
  } finally {
    await local.close();
  }
  const rewards = [...expected.values()];
  expect(rewards.some((r) => r < 1) && rewards.some((r) => r === 1)).toBe(true);
}, 120_000);

afterAll(async () => {
  for (const w of spawned) {
    w.child.kill("SIGCONT");
    w.child.kill("SIGKILL");
  }
  await db?.close();
  await server?.close();
  await postgres?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

// A test that failed half-way leaves its workers behind: they must not take the next test's jobs.
afterEach(() => {
  for (const w of spawned.splice(0)) {
    w.child.kill("SIGCONT");
    w.child.kill("SIGKILL");
  }
});

async function startWorkers(n: number, concurrency?: number): Promise<Array<ColbenchProcess & { id: string }>> {
  const started = Array.from({ length: n }, () => spawnColbench(scratch, worker(concurrency), env()));
  spawned.push(...started);
  await Promise.all(started.map((w) => w.waitFor("ready")));
  return started.map((w) => Object.assign(w, { id: /worker (\S+) ready/.exec(w.output())![1]! }));
}

async function queueRun(name: string, agent: string): Promise<number> {
  const queued = await runColbench(
    scratch,
    [
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "source=backend.jsonl",
      "--limit",
      String(TASKS),
      "--best-of",
      String(K),
      "--name",
      name,
      "--detach",
      "--agent",
      agent,
      "--simulator",
      `${server.url}#simulator`,
    ],
    env(),
  );
  expect(queued.status, queued.stderr).toBe(0);
  return (await db.prisma.run.findUniqueOrThrow({ where: { name } })).id;
}

/** A query that may meet the restart of PostgreSQL: tried again until it answers. */
async function patiently<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      if (attempt > 100) throw error;
      await sleep(200);
    }
  }
}

const until = async (what: string, test: () => Promise<boolean>, timeoutMs = 60_000) => {
  for (const deadline = Date.now() + timeoutMs; !(await patiently(test)); await sleep(100)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

const runStatus = async (runId: number) => (await db.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status;
const heldBy = (runId: number, owner: string) =>
  db.prisma.episode.findMany({
    where: { runId, status: "running", claimedBy: owner, leaseUntil: { not: null } },
    select: { id: true },
  });

/** What every fault must leave: each episode once and done, whole dialogues, the reference rewards, no job left. */
async function expectWhole(runId: number, name: string): Promise<void> {
  await until(`run ${name} to end`, async () => ["done", "failed"].includes(await runStatus(runId)), 120_000);
  const episodes = await db.prisma.episode.findMany({
    where: { runId },
    include: { turns: { orderBy: { index: "asc" } } },
  });
  expect(episodes).toHaveLength(TASKS * K);
  expect(new Set(episodes.map((e) => `${e.taskId}/${e.sample}`)).size).toBe(TASKS * K);
  for (const e of episodes) {
    expect(e.status, JSON.stringify(e.details)).toBe("done");
    expect(e.waitingFor).toBeNull();
    expect(e.turns.map((t) => t.index)).toEqual(e.turns.map((_, i) => i));
    e.turns.forEach((t, i) => expect(t.role).toBe(i % 2 === 0 ? "simulator" : "agent"));
    expect(e.turns.at(-1)!.content).toContain("I WANT TO ANSWER:");
  }
  for (const [task, rewards] of await rewardsOf(db, name))
    expect(new Set(rewards), task).toEqual(new Set([expected.get(task)]));
  expect(await runStatus(runId)).toBe("done");
  await expect
    .poll(
      async () => {
        const rows = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT COUNT(*) AS n FROM pgboss.job WHERE name IN ('colbench-play', 'colbench-score') AND state IN ('created', 'retry', 'active') AND (data->>'runId')::int = ${runId}`,
        );
        return Number(rows[0]!.n);
      },
      { timeout: 20_000 },
    )
    .toBe(0);
}

async function stop(workers: ColbenchProcess[]): Promise<void> {
  for (const w of workers) w.child.kill("SIGTERM");
  const codes = await Promise.all(workers.map((w) => w.exited));
  codes.forEach((code, i) => expect(code, workers[i]!.output()).toBe(0));
  // No query was handed to a pg connection busy with another (pg's DeprecationWarning).
  for (const w of workers) expect(w.output()).not.toContain("DeprecationWarning");
}

describe("faults over three workers on a PostgreSQL run queue", () => {
  it(
    "a worker paused past its lease wakes after others finished its episodes: it drops them, changing nothing",
    { timeout: 150_000 },
    async () => {
      const workers = await startWorkers(3);
      const runId = await queueRun("paused-late", `${server.url}#slow:600`);
      const [victim] = workers as [(typeof workers)[number]];
      await until("the victim to hold episodes", async () => (await heldBy(runId, victim.id)).length > 0);
      victim.child.kill("SIGSTOP");
      const taken = (await heldBy(runId, victim.id)).map((e) => e.id);
      expect(taken.length).toBeGreaterThan(0);
      // The others take its episodes over once its lease lapses, and finish them.
      await until(
        "its episodes to be finished by others",
        async () => (await db.prisma.episode.count({ where: { id: { in: taken }, status: "done" } })) === taken.length,
        90_000,
      );
      const finished = await db.prisma.episode.findMany({ where: { id: { in: taken } }, include: { turns: true } });
      expect(finished.every((e) => e.claimedBy !== victim.id)).toBe(true);
      victim.child.kill("SIGCONT");
      await victim.waitFor("dropped", 30_000);
      await expectWhole(runId, "paused-late");
      // What the others wrote stands: same rows, same turns.
      const after = await db.prisma.episode.findMany({ where: { id: { in: taken } }, include: { turns: true } });
      expect(after.map((e) => [e.id, e.reward, e.endedAt?.getTime(), e.turns.length])).toEqual(
        finished.map((e) => [e.id, e.reward, e.endedAt?.getTime(), e.turns.length]),
      );
      await stop(workers);
      expect(victim.output()).toMatch(/stopped after \d+ job\(s\), \d+ dropped \(claim lost/);
      expect(victim.output()).not.toMatch(/failed/);
    },
  );

  it(
    "a worker paused past its lease wakes while the new owner is mid-episode: the new owner plays on, the sleeper stops",
    { timeout: 150_000 },
    async () => {
      const workers = await startWorkers(3, 2);
      const runId = await queueRun("paused-mid", `${server.url}#slow:2500`);
      const [victim] = workers as [(typeof workers)[number]];
      await until("the victim to hold episodes", async () => (await heldBy(runId, victim.id)).length > 0);
      victim.child.kill("SIGSTOP");
      const taken = (await heldBy(runId, victim.id)).map((e) => e.id);
      await until(
        "its episodes to be taken over",
        async () =>
          (await db.prisma.episode.findMany({ where: { id: { in: taken } } })).every(
            (e) => e.claimedBy !== victim.id || e.status === "done",
          ),
        60_000,
      );
      const midway = await db.prisma.episode.findMany({ where: { id: { in: taken }, status: "running" } });
      expect(midway.length).toBeGreaterThan(0);
      victim.child.kill("SIGCONT");
      await victim.waitFor("dropped", 30_000);
      await expectWhole(runId, "paused-mid");
      await stop(workers);
      expect(victim.output()).not.toMatch(/failed/);
    },
  );

  it(
    "the model server gone for 20 s mid-run: episodes wait and say so, then go on; none fails",
    { timeout: 150_000 },
    async () => {
      // One episode at a time each: on a quiet machine twelve at once end together, before the server goes.
      const workers = await startWorkers(3, 1);
      const runId = await queueRun("outage", `${server.url}#slow:300`);
      await until(
        "a few episodes to end",
        async () => (await db.prisma.episode.count({ where: { runId, status: "done" } })) >= 2,
      );
      const port = Number(new URL(server.url).port);
      expect(
        await db.prisma.episode.count({ where: { runId, status: { in: ["pending", "running"] } } }),
      ).toBeGreaterThan(0);
      // What live views hear (a seat's page among them): which episodes wait, and when they go on.
      const bus = await openEventBus({ url });
      const heard: Array<Extract<RunEvent, { type: "waiting" }>> = [];
      const unsubscribe = bus.subscribe((event) => {
        if (event.type === "waiting" && event.runId === runId) heard.push(event);
      });
      await server.close();
      const downAt = Date.now();
      const waits = () =>
        db.prisma.$queryRawUnsafe<Array<{ id: number; waitingFor: unknown }>>(
          `SELECT "id", "waitingFor" FROM "Episode" WHERE "runId" = ${runId} AND "status" = 'running' AND "waitingFor" IS NOT NULL`,
        );
      await until("episodes to say they wait for the server", async () => (await waits()).length > 0, 15_000);
      const waiting = await waits();
      expect(waiting[0]!.waitingFor).toMatchObject({
        server: server.url,
        cause: expect.any(String) as unknown,
        since: expect.any(String) as unknown,
      });
      await until(
        "live views to hear of it",
        async () => heard.some((e) => e.wait && e.episodeIds.includes(waiting[0]!.id)),
        5_000,
      );
      expect(heard.find((e) => e.wait)!.wait).toMatchObject({
        server: server.url,
        cause: expect.any(String) as unknown,
        since: expect.any(String) as unknown,
      });
      const listed = await runColbench(scratch, ["runs", "list"], env());
      expect(listed.stdout).toMatch(/waiting for the model server \(http:\/\/127\.0\.0\.1:\d+\/v1: .+, since /);
      await sleep(Math.max(0, 20_000 - (Date.now() - downAt)));
      expect(await db.prisma.episode.count({ where: { runId, status: "failed" } })).toBe(0);
      server = await startScriptedServer({ tasks, port });
      await expectWhole(runId, "outage");
      // The server answered again: the episodes that had waited were told so.
      expect(heard.some((e) => e.wait === null && e.episodeIds.includes(waiting[0]!.id))).toBe(true);
      unsubscribe();
      await bus.close();
      await stop(workers);
    },
  );

  it("PostgreSQL restarted mid-run", { timeout: 150_000 }, async () => {
    const workers = await startWorkers(3, 1);
    const runId = await queueRun("pg-restart", `${server.url}#slow:300`);
    await until(
      "a few episodes to end",
      async () => (await db.prisma.episode.count({ where: { runId, status: "done" } })) >= 2,
    );
    expect(await db.prisma.episode.count({ where: { runId, status: { in: ["pending", "running"] } } })).toBeGreaterThan(
      0,
    );
    await postgres.restart();
    await expectWhole(runId, "pg-restart");
    await stop(workers);
  });

  it("kill -9 of two of three workers at once", { timeout: 150_000 }, async () => {
    const workers = await startWorkers(3);
    const runId = await queueRun("two-killed", `${server.url}#slow:400`);
    const victims = workers.slice(0, 2);
    await until("both victims to hold episodes", async () =>
      (await Promise.all(victims.map((v) => heldBy(runId, v.id)))).every((held) => held.length > 0),
    );
    for (const v of victims) v.child.kill("SIGKILL");
    await Promise.all(victims.map((v) => v.exited));
    expect(await db.prisma.episode.count({ where: { runId, status: { in: ["pending", "running"] } } })).toBeGreaterThan(
      0,
    );
    await expectWhole(runId, "two-killed");
    await stop(workers.slice(2));
  });
});
