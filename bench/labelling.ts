// Many people labelling at once, over HTTP against the built studio (`colbench serve`): 50 scripted
// annotators label a 2000-pair queue with overlap 3 for 60 s (each "reads" a pair for a random
// 200-600 ms, COLBENCH_BENCH_THINK_MS=LOW-HIGH to change, then presses a key), then run on without
// pausing until the queue drains. On embedded
// PGlite and on a throwaway PostgreSQL cluster. Checked at the end, from the database: every
// acknowledged label is stored, no pair has more labels than its overlap, no one labelled a pair
// twice, every slot is labelled. Printed: the time from sending a label to holding the next pair
// (the label request's answer carries it), p50/p95/p99, against the peer measured in the same run
// by the same clients: GET /api/health, the studio's bare HTTP round trip.
//
//   npm run build && npx tsx bench/labelling.ts [pglite|postgresql|both] [annotators=50] [pairs=2000] [overlap=3] [seconds=60]
//   (COLBENCH_BENCH_PG_SOCKET=1: the studio reaches PostgreSQL over its Unix socket instead of TCP)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../lib/db/open";
import { startPostgres, type PostgresServer } from "../lib/db/testing/postgres-server";
import { storeFor } from "../lib/store";
import { projectRoot } from "../lib/paths";
import { e2ePort } from "../e2e/ports";
import { startStudio } from "../e2e/studio";
import { describeTimes as fmt, percentile, prepareLabelling, runAnnotators } from "./labelling-load";

const which = process.argv[2] ?? "both";
const ANNOTATORS = Number(process.argv[3] ?? 50);
const PAIRS = Number(process.argv[4] ?? 2000);
const OVERLAP = Number(process.argv[5] ?? 3);
const SECONDS = Number(process.argv[6] ?? 60);
const PORT = e2ePort(6);
// How long a scripted annotator looks at a pair before pressing a key, in the timed window (ms, uniform).
const [THINK_LOW, THINK_HIGH] = (process.env.COLBENCH_BENCH_THINK_MS ?? "200-600").split("-").map(Number) as [
  number,
  number,
];

if (!fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) {
  console.error("bench/labelling: the studio is not built: run `npm run build` first");
  process.exit(2);
}

async function prepare(db: Database) {
  const started = performance.now();
  const setup = await prepareLabelling(db, { annotators: ANNOTATORS, pairs: PAIRS, overlap: OVERLAP });
  console.log(
    `  prepared ${PAIRS} pairs, ${PAIRS * OVERLAP} slots, ${ANNOTATORS} annotators in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return setup;
}

async function verify(
  db: Database,
  queueId: number,
  acknowledged: Array<{ user: number; item: number }>,
  userIds: Map<string, number>,
) {
  const store = storeFor(db.prisma);
  const labels = await store.labels.ofQueue(queueId);
  const slots = await store.queues.slots(queueId);
  const stored = new Set(labels.map((l) => `${l.itemId}:${l.userId}`));
  const acked = new Set(acknowledged.map((a) => `${a.item}:${userIds.get(`bench-annotator${a.user}`)}`));
  const perItem = new Map<number, number>();
  for (const l of labels) perItem.set(l.itemId, (perItem.get(l.itemId) ?? 0) + 1);
  const missing = [...acked].filter((k) => !stored.has(k)).length;
  const overOverlap = [...perItem.values()].filter((n) => n > OVERLAP).length;
  return {
    labels: labels.length,
    acknowledged: acknowledged.length,
    missing,
    unacknowledgedExtra: [...stored].filter((k) => !acked.has(k)).length,
    twice: labels.length - stored.size,
    overOverlap,
    unlabelledSlots: slots.filter((s) => !s.labelled).length,
    ok:
      missing === 0 &&
      overOverlap === 0 &&
      labels.length === stored.size &&
      slots.every((s) => s.labelled) &&
      labels.length === PAIRS * OVERLAP,
  };
}

async function bench(kind: "pglite" | "postgresql") {
  console.log(
    `\n${kind}: ${ANNOTATORS} annotators, ${PAIRS} pairs, overlap ${OVERLAP}, ${SECONDS} s reading each pair ${THINK_LOW}-${THINK_HIGH} ms, then to the end with no pause`,
  );
  let server: PostgresServer | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-label-"));
  const open = async () =>
    kind === "pglite"
      ? openDatabase({ pgliteDir: path.join(dir, "db"), url: "" })
      : openDatabase({ url: databaseUrl! });
  let databaseUrl: string | undefined;
  if (kind === "postgresql") {
    server = await startPostgres();
    databaseUrl = await server.createDatabase("bench_labelling");
    // COLBENCH_BENCH_PG_SOCKET=1: the studio reaches the server over its Unix socket rather than TCP on
    // loopback (a server on the same machine can be reached either way; the socket's writes cost less).
    const overSocket = process.env.COLBENCH_BENCH_PG_SOCKET === "1";
    if (overSocket) {
      const tcp = new URL(databaseUrl);
      databaseUrl = `postgresql://colbench@localhost/bench_labelling?host=${encodeURIComponent(server.socketDir)}&port=${tcp.port}`;
    }
    console.log(`  the studio reaches it over ${overSocket ? "its Unix socket" : "TCP on 127.0.0.1"}`);
    console.log(`  ${server.version}`);
  }
  let db = await open();
  const setup = await prepare(db);
  const { queueId } = setup;
  const userIds = new Map((await storeFor(db.prisma).users.list()).map((u) => [u.name, u.id]));
  await db.close();
  const studio = await startStudio(PORT, dir, kind === "postgresql" ? { DATABASE_URL: databaseUrl! } : {});
  try {
    const run = await runAnnotators(studio.url, setup, {
      seconds: SECONDS,
      think: [THINK_LOW, THINK_HIGH],
      drain: true,
      alive: () => studio.process.exitCode === null,
      studioPid: studio.process.pid,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${studio.output().slice(-3000)}`);
    });
    console.log(
      `  labelled ${run.labelledInWindow} in the first ${SECONDS} s (${(run.labelledInWindow / SECONDS).toFixed(1)}/s); the queue drained after ${run.elapsed.toFixed(1)} s; refused ${run.refused}; connections reset and retried ${run.resets}`,
    );
    console.log(
      `  warm-up, everyone opening the desk in the window's first seconds: label ${fmt(run.warmup)}; health ${fmt(run.warmupHealth)}`,
    );
    console.log(`  label request -> next pair, the rest of ${SECONDS} s at a reading pace: ${fmt(run.timed)}`);
    console.log(`  peer, GET /api/health in the same window:         ${fmt(run.health)}`);
    const cpuInWindow = run.cpuInWindow;
    if (cpuInWindow) {
      // Everything the studio did in the window (labels, their sign-ins and next pairs, health) per label stored.
      const per = (s: number) => ((s * 1000) / Math.max(1, run.labelledInWindow)).toFixed(2);
      console.log(
        `  studio CPU per label in the window: main thread ${per(cpuInWindow.main)} ms, busiest other thread${kind === "pglite" ? " (the database's)" : ""} ${per(cpuInWindow.busiestOther)} ms, other threads ${per(cpuInWindow.rest)} ms`,
      );
    }
    if (run.clientCpuInWindow !== undefined && run.machineBusyInWindow !== undefined)
      console.log(
        `  the bench's own 50 annotators on this machine: ${((run.clientCpuInWindow * 1000) / Math.max(1, run.labelledInWindow)).toFixed(2)} CPU-ms per label; the machine's ${os.cpus().length} cores ${Math.round(run.machineBusyInWindow * 100)}% busy`,
      );
    console.log(
      `  ratio p95 label / p95 health: ${(percentile(run.timed, 0.95) / percentile(run.health, 0.95)).toFixed(2)}`,
    );
    if (run.draining.length)
      console.log(`  label request -> next pair, draining with no pause (50 at once): ${fmt(run.draining)}`);
    const code = await studio.stop();
    if (code !== 0) throw new Error(`studio exited with ${code}:\n${studio.output()}`);
    db = await open();
    const check = await verify(db, queueId, run.acknowledged, userIds);
    await db.close();
    console.log(`  check: ${JSON.stringify(check)}`);
    if (!check.ok) process.exitCode = 1;
  } finally {
    if (studio.process.exitCode === null) await studio.stop("SIGKILL");
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of which === "both" ? (["pglite", "postgresql"] as const) : ([which] as Array<"pglite" | "postgresql">))
  await bench(kind);
