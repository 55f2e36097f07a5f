// Episodes per second with 1, 2 and 4 `colbench worker` processes on one machine, each at the same
// concurrency, against a scripted model server that takes 500 ms per reply (latency-bound, like real
// model servers); and the run queue's own cost per job (enqueue + fetch + complete of no-op jobs).
// Peers, measured in the same run: 1 worker (for the scaling ratios) and a 5 ms budget per job.
//
//   npx tsx bench/distributed.ts [perWorkerConcurrency=4] [roundsPerWorker=4] [replyMs=500]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/open";
import { startPostgres } from "../lib/db/testing/postgres-server";
import { projectRoot } from "../lib/paths";
import { spawnScriptedServer } from "./scripted-server";
import { JobQueue } from "../lib/queue/queue";
import { runColbench, spawnColbench, type ColbenchProcess } from "../cli/testing/colbench";

const concurrency = Number(process.argv[2] ?? 4);
const rounds = Number(process.argv[3] ?? 4);
const replyMs = Number(process.argv[4] ?? 500);
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-dist-"));

const postgres = await startPostgres();
const server = await spawnScriptedServer(["--port", "0", "--tasks", taskFile, "--reply-ms", String(replyMs)]);
try {
  const url = await postgres.createDatabase("bench");
  const env = { env: { DATABASE_URL: url } };
  const imported = await runColbench(scratch, ["import", taskFile, "--benchmark", "backend"], env);
  if (imported.status !== 0) throw new Error(imported.stderr);
  const db = await openDatabase({ url, migrate: false });

  // Queue overhead: no-op jobs for a run that does not exist, with no worker running.
  const queue = await JobQueue.open(url);
  const JOBS = 500;
  const noop = Array.from({ length: JOBS }, (_, i) => ({ runId: -1, episodeId: i }));
  let t = performance.now();
  await queue.enqueue("play", noop);
  const enqueueMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < JOBS; i++) {
    const [job] = await queue.fetch("play", 1);
    await queue.complete("play", [job!.id]);
  }
  const oneByOneMs = performance.now() - t;
  await queue.enqueue("play", noop);
  t = performance.now();
  for (let i = 0; i < JOBS; i += concurrency) {
    const jobs = await queue.fetch("play", concurrency);
    await queue.complete(
      "play",
      jobs.map((j) => j.id),
    );
  }
  const batchedMs = performance.now() - t;
  await queue.close();

  const throughput: Record<number, number> = {};
  for (const n of [1, 2, 4]) {
    const workers: ColbenchProcess[] = [];
    for (let i = 0; i < n; i++)
      workers.push(spawnColbench(scratch, ["worker", "--concurrency", String(concurrency), "--poll", "100"], env));
    await Promise.all(workers.map((w) => w.waitFor("ready")));
    // Exactly `rounds` episodes per slot: 8 tasks x k.
    const limit = 8;
    const bestOf = (n * concurrency * rounds) / limit;
    const name = `bench-${n}`;
    const queued = await runColbench(
      scratch,
      [
        "run",
        "--benchmark",
        "backend",
        "--tasks",
        "source=backend.jsonl",
        "--limit",
        String(limit),
        "--best-of",
        String(bestOf),
        "--name",
        name,
        "--detach",
        "--agent",
        `${server.url}#ask-then-answer`,
        "--simulator",
        `${server.url}#simulator`,
      ],
      env,
    );
    if (queued.status !== 0) throw new Error(queued.stderr);
    let total = 0;
    let seconds = 0;
    for (;;) {
      const run = await db.prisma.run.findUniqueOrThrow({ where: { name } });
      if (run.status === "done" || run.status === "failed") {
        // From the first episode's start to the last one's end, by the database's clock (the
        // enqueueing command's own start-up is not the queue's work).
        const span = await db.prisma.episode.aggregate({
          where: { runId: run.id, status: "done" },
          _count: { _all: true },
          _min: { startedAt: true },
          _max: { endedAt: true },
        });
        total = span._count._all;
        seconds = (span._max.endedAt!.getTime() - span._min.startedAt!.getTime()) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throughput[n] = total / seconds;
    console.log(
      `${n} worker(s) x concurrency ${concurrency}: ${total} episodes in ${seconds.toFixed(2)} s = ${throughput[n].toFixed(2)} episodes/s`,
    );
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
  }
  await db.close();

  const perJob = (ms: number) => ms / JOBS;
  console.log(
    `queue overhead per job: enqueue ${perJob(enqueueMs).toFixed(3)} ms (batches of 1000) + fetch & complete one at a time ${perJob(oneByOneMs).toFixed(3)} ms = ${perJob(enqueueMs + oneByOneMs).toFixed(3)} ms; fetched and completed ${concurrency} at a time ${perJob(enqueueMs + batchedMs).toFixed(3)} ms`,
  );
  console.log(
    `ratios: 2 workers / 1 = ${(throughput[2]! / throughput[1]!).toFixed(2)}x, 4 workers / 1 = ${(throughput[4]! / throughput[1]!).toFixed(2)}x (goal >= 3.5x); queue overhead / 5 ms budget = ${(perJob(enqueueMs + oneByOneMs) / 5).toFixed(3)}`,
  );
} finally {
  server.stop();
  await postgres.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(0);
