import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { startPostgres, type PostgresServer } from "../lib/db/testing/postgres-server";
import { projectRoot } from "../lib/paths";
import { runColbench, spawnColbench, type ColbenchProcess } from "./testing/colbench";
import { JobQueue } from "../lib/queue/queue";
import { dequeueRun } from "../lib/queue/enqueue";
import { storeFor } from "../lib/store";
import { loadScriptedTasks, startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// A run of 200 episodes on the run queue of a real PostgreSQL server, played by three `colbench
// worker` processes; one is killed with -9 mid-run and another started. Every sample ends with one
// scored episode with a whole dialogue, and rewards match the single-process runner's.

const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const TASKS = 10;
const K = 20;
// Short leases, so the dead worker's jobs come back within seconds.
const WORKER = ["worker", "--concurrency", "8", "--lease", "2", "--poll", "100", "--grace", "5"];

let server: ScriptedServer;
let postgres: PostgresServer;
let url: string;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-dist-"));
const workers: ColbenchProcess[] = [];

beforeAll(async () => {
  // The scripted agent answers with what it is given here: the real solution for most tasks, and for
  // every third one the solution with its returns broken, so rewards differ between tasks and the
  // comparison with the single-process runner below has something to disagree about.
  const tasks = loadScriptedTasks(taskFile).map((t, i) =>
    i % 3 === 1 ? { ...t, groundTruth: t.groundTruth.replace(/return\b[^\n]*/g, "return None") } : t,
  );
  server = await startScriptedServer({ tasks });
  postgres = await startPostgres();
  url = await postgres.createDatabase("distributed");
  const imported = await runColbench(scratch, ["import", taskFile, "--benchmark", "backend"], {
    env: { DATABASE_URL: url },
  });
  expect(imported.status, imported.stderr).toBe(0);
}, 60_000);

// A test that failed midway leaves its workers running; stopped here, they cannot take the next
// test's jobs or show up in its worker count.
afterEach(async () => {
  const alive = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  for (const w of alive) w.child.kill("SIGTERM");
  const stopped = Promise.all(alive.map((w) => w.exited));
  const late = setTimeout(() => alive.forEach((w) => w.child.kill("SIGKILL")), 10_000);
  await stopped;
  clearTimeout(late);
});

afterAll(async () => {
  for (const w of workers) w.child.kill("SIGKILL");
  await server?.close();
  await postgres?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Reward of each task's episodes, by the task's text (ids differ between databases). */
async function rewardsByTask(db: Database, runName: string): Promise<Map<string, number[]>> {
  const run = await db.prisma.run.findUniqueOrThrow({ where: { name: runName } });
  const episodes = await db.prisma.episode.findMany({
    where: { runId: run.id },
    include: { task: { select: { problemDescription: true } } },
  });
  const out = new Map<string, number[]>();
  for (const e of episodes)
    out.set(e.task.problemDescription, [...(out.get(e.task.problemDescription) ?? []), e.reward ?? Number.NaN]);
  return out;
}

describe("a run over three worker processes on a PostgreSQL queue", () => {
  it(
    "survives kill -9 of a worker: one scored episode per sample, no turn twice, the single-process rewards",
    { timeout: 150_000 },
    async () => {
      const env = { env: { DATABASE_URL: url } };
      for (let i = 0; i < 3; i++) workers.push(spawnColbench(scratch, WORKER, env));
      await Promise.all(workers.map((w) => w.waitFor("ready")));

      const agent = `${server.url}#slow:60`;
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
          "spread",
          "--detach",
          "--agent",
          agent,
          "--simulator",
          `${server.url}#simulator`,
        ],
        env,
      );
      expect(queued.status, queued.stderr).toBe(0);
      expect(queued.stderr).toContain(`queued ${TASKS * K} episode(s)`);

      const db = await openDatabase({ url, migrate: false });
      try {
        const run = await db.prisma.run.findUniqueOrThrow({ where: { name: "spread" } });
        const done = () => db.prisma.episode.count({ where: { runId: run.id, status: "done" } });
        // Mid-run: some episodes done, and the victim holding jobs it is playing.
        const victim = workers[0]!;
        const victimId = /worker (\S+) ready/.exec(victim.output())![1]!;
        for (let deadline = Date.now() + 60_000; (await done()) < 40 && Date.now() < deadline;)
          await new Promise((r) => setTimeout(r, 50));
        const held = await db.prisma.worker.findUniqueOrThrow({ where: { id: victimId } });
        expect((held.jobs as unknown[]).length).toBeGreaterThan(0);
        victim.child.kill("SIGKILL");
        await victim.exited;
        const atKill = await done();
        expect(atKill).toBeLessThan(TASKS * K);
        const replacement = spawnColbench(scratch, WORKER, env);
        workers.push(replacement);
        await replacement.waitFor("ready");

        for (let deadline = Date.now() + 90_000; Date.now() < deadline;) {
          const status = (await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status;
          if (status === "done" || status === "failed") break;
          await new Promise((r) => setTimeout(r, 200));
        }
        const episodes = await db.prisma.episode.findMany({
          where: { runId: run.id },
          include: { turns: { orderBy: { index: "asc" } } },
        });
        expect(episodes).toHaveLength(TASKS * K);
        expect(new Set(episodes.map((e) => `${e.taskId}/${e.sample}`)).size).toBe(TASKS * K);
        for (const e of episodes) {
          expect(e.status, JSON.stringify(e.details)).toBe("done");
          expect(e.reward).not.toBeNull();
          // Whole dialogues: each index once, roles alternating, ending with the answer.
          expect(e.turns.map((t) => t.index)).toEqual(e.turns.map((_, i) => i));
          e.turns.forEach((t, i) => expect(t.role).toBe(i % 2 === 0 ? "simulator" : "agent"));
          expect(e.turns.at(-1)!.content).toContain("I WANT TO ANSWER:");
        }
        // The dead worker's episodes were finished by the others: it is gone from the table, and the queue is empty.
        expect((await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
        await expect
          .poll(async () => (await db.prisma.worker.findMany()).map((w) => w.id).includes(victimId), {
            timeout: 10_000,
          })
          .toBe(false);
        const left = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'colbench-play' AND state IN ('created', 'retry', 'active')`,
        );
        expect(Number(left[0]!.n)).toBe(0);
        const handedBack = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'colbench-play' AND retry_count > 0`,
        );
        expect(Number(handedBack[0]!.n)).toBeGreaterThan(0);

        // SIGTERM: the live workers stop cleanly and leave the table.
        const live = workers.slice(1);
        for (const w of live) w.child.kill("SIGTERM");
        expect(await Promise.all(live.map((w) => w.exited))).toEqual(live.map(() => 0));
        expect(await db.prisma.worker.count()).toBe(0);

        // The same tasks through the single-process runner (embedded database): the same rewards.
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
          "--best-of",
          "2",
          "--name",
          "single",
          "--agent",
          agent,
          "--simulator",
          `${server.url}#simulator`,
        ]);
        expect(played.status, played.stderr).toBe(0);
        const local = await openDatabase({ pgliteDir: path.join(single, "db"), url: "" });
        try {
          const expected = await rewardsByTask(local, "single");
          const all = [...expected.values()].flat();
          expect(all.some((r) => r < 1) && all.some((r) => r === 1)).toBe(true);
          const actual = await rewardsByTask(db, "spread");
          expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
          for (const [task, rewards] of actual) expect(new Set(rewards), task).toEqual(new Set(expected.get(task)));
        } finally {
          await local.close();
        }
      } finally {
        await db.close();
      }
    },
  );

  it(
    "a worker stopped with SIGTERM hands back what it holds at once, and another finishes it from the stored turns",
    { timeout: 90_000 },
    async () => {
      const env = { env: { DATABASE_URL: url } };
      const first = spawnColbench(
        scratch,
        ["worker", "--concurrency", "4", "--lease", "30", "--poll", "100", "--grace", "0.2"],
        env,
      );
      workers.push(first);
      await first.waitFor("ready");
      // Slow replies: it holds four episodes mid-dialogue when it is told to stop.
      const queued = await runColbench(
        scratch,
        [
          "run",
          "--benchmark",
          "backend",
          "--tasks",
          "source=backend.jsonl",
          "--limit",
          "4",
          "--best-of",
          "2",
          "--name",
          "handed-back",
          "--detach",
          "--agent",
          `${server.url}#slow:400`,
          "--simulator",
          `${server.url}#simulator`,
        ],
        env,
      );
      expect(queued.status, queued.stderr).toBe(0);
      const db = await openDatabase({ url, migrate: false });
      try {
        const run = await db.prisma.run.findUniqueOrThrow({ where: { name: "handed-back" } });
        await expect
          .poll(() => db.prisma.turn.count({ where: { episode: { runId: run.id }, role: "agent" } }), {
            timeout: 30_000,
          })
          .toBeGreaterThan(0);
        first.child.kill("SIGTERM");
        expect(await first.exited, first.output()).toBe(0);
        expect(first.output()).toContain("stopped after");
        // Handed back, not left to expire: its jobs wait again and its episodes' claims are let go.
        const waiting = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'colbench-play' AND state IN ('created', 'retry') AND (data->>'runId')::int = ${run.id}`,
        );
        expect(Number(waiting[0]!.n)).toBe(
          8 - (await db.prisma.episode.count({ where: { runId: run.id, status: "done" } })),
        );
        expect(
          await db.prisma.episode.count({ where: { runId: run.id, status: "running", leaseUntil: { not: null } } }),
        ).toBe(0);
        const interrupted = await db.prisma.episode.count({
          where: { runId: run.id, status: "running", turns: { some: {} } },
        });
        expect(interrupted).toBeGreaterThan(0);

        // A fresh worker takes them at once (the 30-second lease is not waited out) and resumes them.
        const started = Date.now();
        const second = spawnColbench(scratch, ["worker", "--concurrency", "8", "--lease", "30", "--poll", "100"], env);
        workers.push(second);
        await expect
          .poll(async () => (await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status, {
            timeout: 30_000,
          })
          .toBe("done");
        expect(Date.now() - started).toBeLessThan(25_000);
        const episodes = await db.prisma.episode.findMany({
          where: { runId: run.id },
          include: { turns: { orderBy: { index: "asc" } } },
        });
        for (const e of episodes) {
          expect(e.status).toBe("done");
          expect(e.turns.map((t) => t.index)).toEqual(e.turns.map((_, i) => i));
          e.turns.forEach((t, i) => expect(t.role).toBe(i % 2 === 0 ? "simulator" : "agent"));
        }
        second.child.kill("SIGTERM");
        expect(await second.exited).toBe(0);
      } finally {
        await db.close();
      }
    },
  );

  it(
    "splits playing and scoring: a --kinds play worker stores dialogues, a --kinds score worker scores them",
    { timeout: 90_000 },
    async () => {
      const env = { env: { DATABASE_URL: url } };
      const player = spawnColbench(scratch, ["worker", "--kinds", "play", "--concurrency", "4", "--poll", "100"], env);
      workers.push(player);
      await player.waitFor("ready");
      const queued = await runColbench(
        scratch,
        [
          "run",
          "--benchmark",
          "backend",
          "--tasks",
          "source=backend.jsonl",
          "--limit",
          "3",
          "--best-of",
          "2",
          "--name",
          "split",
          "--detach",
          "--agent",
          `${server.url}#ask-then-answer`,
          "--simulator",
          `${server.url}#simulator`,
        ],
        env,
      );
      expect(queued.status, queued.stderr).toBe(0);
      const db = await openDatabase({ url, migrate: false });
      try {
        const run = await db.prisma.run.findUniqueOrThrow({ where: { name: "split" } });
        const scoreJobs = async (state: string) =>
          Number(
            (
              await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
                `SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'colbench-score' AND state = '${state}' AND (data->>'runId')::int = ${run.id}`,
              )
            )[0]!.n,
          );
        // Played to the answer, none scored: every episode waits for a scorer, its claim let go.
        await expect.poll(() => scoreJobs("created"), { timeout: 30_000 }).toBe(6);
        const waiting = await db.prisma.episode.findMany({ where: { runId: run.id }, include: { turns: true } });
        for (const e of waiting) {
          expect(e.status).toBe("running");
          expect(e.reward).toBeNull();
          expect(e.leaseUntil).toBeNull();
          expect(e.turns.some((t) => t.content.includes("I WANT TO ANSWER:"))).toBe(true);
        }
        const scorer = spawnColbench(
          scratch,
          ["worker", "--kinds", "score", "--concurrency", "4", "--poll", "100"],
          env,
        );
        workers.push(scorer);
        await expect
          .poll(async () => (await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status, {
            timeout: 30_000,
          })
          .toBe("done");
        // The last scorer marks the run done before pg-boss records its job as completed.
        await expect.poll(() => scoreJobs("completed"), { timeout: 10_000 }).toBe(6);
        const scored = await db.prisma.episode.findMany({
          where: { runId: run.id },
          include: { _count: { select: { turns: true } } },
        });
        // Scored from the stored dialogue: no turn was added by the scorer.
        for (const e of scored) {
          expect(e.status).toBe("done");
          expect(e.reward).not.toBeNull();
          expect(e._count.turns).toBe(waiting.find((w) => w.id === e.id)!.turns.length);
        }
        // The scorer really ran the tests: the solved tasks score 1, the broken one (the second) less, both samples alike.
        const byTask = new Map<number, Set<number>>();
        for (const e of scored) byTask.set(e.taskId, (byTask.get(e.taskId) ?? new Set()).add(e.reward!));
        expect([...byTask.values()].map((rewards) => rewards.size)).toEqual([1, 1, 1]);
        expect([...byTask.values()].map((rewards) => [...rewards][0]! === 1).sort()).toEqual([false, true, true]);
        for (const w of [player, scorer]) w.child.kill("SIGTERM");
        expect(await Promise.all([player.exited, scorer.exited])).toEqual([0, 0]);
      } finally {
        await db.close();
      }
    },
  );

  it(
    "samples and ranks candidates state by state as jobs, with the results of the single-process steps",
    { timeout: 120_000 },
    async () => {
      const env = { env: { DATABASE_URL: url } };
      const worker = spawnColbench(scratch, ["worker", "--concurrency", "4", "--poll", "100"], env);
      workers.push(worker);
      await worker.waitFor("ready");
      const model = `${server.url}#ask-then-answer`;
      // `colbench doctor` reports the run queue beside the database: this worker, nothing waiting.
      const doctor = await runColbench(scratch, ["doctor", "--json"], env);
      const database = (
        JSON.parse(doctor.stdout) as {
          parts: Array<{
            id: string;
            summary: string;
            details?: { queue?: { workers: number; waiting: number | null } };
          }>;
        }
      ).parts.find((p) => p.id === "database")!;
      expect(database.details?.queue, database.summary).toEqual({ workers: 1, waiting: 0 });
      expect(database.summary).toContain("run queue: 0 job(s) waiting, 1 worker(s)");
      const ok = async (args: string[]) => {
        const result = await runColbench(scratch, args, env);
        expect(result.status, `${args.join(" ")}\n${result.stderr}`).toBe(0);
        return JSON.parse(result.stdout.trim().split("\n").pop()!) as { states: number; queued: number };
      };
      // Two runs of the same tasks: one's steps go through the queue, the other's run in the command.
      for (const name of ["sweet-queued", "sweet-local"]) {
        await ok([
          "run",
          "--benchmark",
          "backend",
          "--tasks",
          "source=backend.jsonl",
          "--limit",
          "2",
          "--name",
          name,
          "--agent",
          model,
          "--simulator",
          `${server.url}#simulator`,
        ]);
      }
      const db = await openDatabase({ url, migrate: false });
      try {
        const queued = await ok(["candidates", "sweet-queued", "--policy", model, "--n", "2", "--queue"]);
        expect(queued.queued).toBe(queued.states);
        expect(queued.states).toBeGreaterThan(0);
        await ok(["candidates", "sweet-local", "--policy", model, "--n", "2"]);
        const candidates = (name: string) =>
          db.prisma.candidate.findMany({
            where: { turn: { episode: { run: { name } } } },
            include: {
              turn: {
                select: { index: true, episode: { select: { task: { select: { problemDescription: true } } } } },
              },
            },
          });
        await expect
          .poll(async () => (await candidates("sweet-queued")).length, { timeout: 30_000 })
          .toBe(queued.states * 3);

        const ranked = await ok(["rank", "sweet-queued", "--critic", model, "--queue"]);
        expect(ranked.queued).toBe(queued.states);
        await ok(["rank", "sweet-local", "--critic", model]);
        await expect
          .poll(async () => (await candidates("sweet-queued")).filter((c) => c.criticScore !== null).length, {
            timeout: 30_000,
          })
          .toBe(queued.states * 3);
        // The records say the queue made the one run's candidates and scores, the command the other's.
        const lineage = async (name: string) =>
          JSON.parse((await runColbench(scratch, ["lineage", name, "--json"], env)).stdout) as Record<
            string,
            Array<{ via: string; policy?: { url: string; model: string }; critic?: { model: string }; n?: number }>
          >;
        const [queuedSteps, localSteps] = [await lineage("sweet-queued"), await lineage("sweet-local")];
        expect(queuedSteps.candidates![0]).toMatchObject({
          via: "queue",
          policy: { url: server.url, model: "ask-then-answer" },
          n: 2,
        });
        expect(queuedSteps.rank![0]).toMatchObject({ via: "queue", critic: { model: "ask-then-answer" } });
        expect([localSteps.candidates![0]!.via, localSteps.rank![0]!.via]).toEqual(["cli", "cli"]);

        const key = (c: Awaited<ReturnType<typeof candidates>>[number]) =>
          `${c.turn.episode.task.problemDescription}|${c.turn.index}|${c.index}`;
        const view = (c: Awaited<ReturnType<typeof candidates>>[number]) => ({
          text: c.text,
          policyMean: c.policyMean,
          criticScore: c.criticScore,
          advantage: c.advantage,
        });
        const local = new Map((await candidates("sweet-local")).map((c) => [key(c), view(c)]));
        const viaQueue = await candidates("sweet-queued");
        expect(viaQueue).toHaveLength(local.size);
        for (const c of viaQueue) expect(view(c), key(c)).toEqual(local.get(key(c)));
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
      } finally {
        await db.close();
      }
    },
  );

  it(
    "stopping a queued run takes its waiting jobs off the queue; resume puts back what is left",
    { timeout: 60_000 },
    async () => {
      const env = { env: { DATABASE_URL: url } };
      const queued = await runColbench(
        scratch,
        [
          "run",
          "--benchmark",
          "backend",
          "--tasks",
          "source=backend.jsonl",
          "--limit",
          "3",
          "--best-of",
          "2",
          "--name",
          "stopped",
          "--detach",
          "--agent",
          `${server.url}#ask-then-answer`,
          "--simulator",
          `${server.url}#simulator`,
        ],
        env,
      );
      expect(queued.stderr).toContain("queued 6 episode(s)");
      const db = await openDatabase({ url, migrate: false });
      const queue = await JobQueue.open(url);
      try {
        const store = storeFor(db.prisma);
        const run = (await store.runs.find("stopped"))!;
        expect(await store.workers.waitingJobsOfRun(run.id)).toHaveLength(6);
        expect(await dequeueRun(store, run.id)).toBe(6);
        expect(await store.workers.waitingJobsOfRun(run.id)).toHaveLength(0);
        expect((await store.runs.find(run.id))!.status).toBe("paused");
        // Resume enqueues every unfinished episode again (cancelled jobs do not count as queued)...
        const resumed = await runColbench(scratch, ["resume", "stopped", "--detach"], env);
        expect(resumed.stderr).toContain("queued 6 episode(s)");
        // ...and only once.
        const again = await runColbench(scratch, ["resume", "stopped", "--detach"], env);
        expect(again.stderr).toContain("queued 0 episode(s)");
        const worker = spawnColbench(scratch, ["worker", "--concurrency", "6", "--poll", "100"], env);
        workers.push(worker);
        await expect.poll(async () => (await store.runs.find(run.id))!.status, { timeout: 30_000 }).toBe("done");
        expect(await db.prisma.episode.count({ where: { runId: run.id, status: "done" } })).toBe(6);
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
      } finally {
        await queue.close();
        await db.close();
      }
    },
  );
});
