import { Command } from "commander";
import { openDatabase } from "../../lib/db/open";
import { openEventBus } from "../../lib/events";
import { parseKinds } from "../../lib/queue/kinds";
import { JobQueue } from "../../lib/queue/queue";
import { queueConfigured } from "../../lib/queue/enqueue";
import { QueueWorker } from "../../lib/queue/worker";
import { storeFor } from "../../lib/store";
import { action, fail } from "../errors";
import { whenOutputGone } from "../output-gone";

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: expected a positive number, got "${value}"`);
  return n;
};

export function register(program: Command): void {
  program
    .command("worker")
    .description(
      "work jobs from the run queue on DATABASE_URL (a PostgreSQL server): play and score episodes of runs enqueued by `colbench run` or the studio, on this machine",
    )
    .option("--concurrency <n>", "jobs worked at once", positive("--concurrency"), 8)
    .option(
      "--kinds <list>",
      "job kinds this machine takes, comma-separated: play (the dialogue; it scores too when score is listed), score (episodes whose dialogue another worker played), sample and rank (SWEET-RL candidates and their ranking, one state a job); default all",
    )
    .option(
      "--lease <seconds>",
      "how long its heartbeat and episode claims hold: a worker silent that long is taken for dead and its jobs go to others",
      positive("--lease"),
      30,
    )
    .option("--poll <ms>", "how often it asks for jobs while the queue is empty", positive("--poll"), 1000)
    .option(
      "--grace <seconds>",
      "on SIGTERM/SIGINT, how long jobs in hand may finish before they are handed back",
      positive("--grace"),
      30,
    )
    .action(
      action(async (opts: { concurrency: number; kinds?: string; lease: number; poll: number; grace: number }) => {
        const kinds = parseKinds(opts.kinds);
        const db = await openDatabase({ command: "colbench worker" });
        if (!queueConfigured(db)) {
          await db.close();
          fail(
            "a worker needs the run queue on a PostgreSQL server: set DATABASE_URL=postgresql://… (the same one `colbench run` and the studio use)",
          );
        }
        const store = storeFor(db.prisma);
        const bus = await openEventBus(db.events);
        const queue = await JobQueue.open(db.url, { max: Math.min(4, Math.ceil(opts.concurrency / 4) + 1) });
        const worker = new QueueWorker({
          store,
          queue,
          bus,
          kinds,
          concurrency: Math.floor(opts.concurrency),
          leaseMs: opts.lease * 1000,
          pollMs: opts.poll,
        });
        await worker.start();
        process.stderr.write(
          `worker ${worker.owner} ready: ${kinds.join(",")} x ${Math.floor(opts.concurrency)} on ${db.location}\n`,
        );
        let stopped!: () => void;
        const stopping = new Promise<void>((resolve) => (stopped = resolve));
        let signals = 0;
        const onSignal = () => {
          // A second signal stops at once: what it holds goes back between turns.
          if (++signals === 1)
            process.stderr.write(`stopping: finishing ${opts.grace} s, then handing back what is left\n`);
          else worker.hurry();
          stopped();
        };
        process.on("SIGTERM", onSignal);
        process.on("SIGINT", onSignal);
        // Nobody reads its output any more: it stops as on SIGTERM, finishing what it holds.
        whenOutputGone(onSignal);
        await stopping;
        await worker.stop(opts.grace * 1000);
        process.stderr.write(
          `worker ${worker.owner} stopped after ${worker.done} job(s)${worker.lost ? `, ${worker.lost} dropped (claim lost to another worker)` : ""}\n`,
        );
        await queue.close().catch(() => {});
        await bus.close().catch(() => {});
        await db.close();
      }),
    );
}
