// Does a backup of the embedded database freeze the people labelling? Builds a data folder with a
// large run (10,000 episodes of 10 turns: 100,000 turns) and a labelling queue, opens it as its owner
// (as `colbench serve` does) and has scripted annotators label through the store for a while without a
// backup, then while `colbench db backup` runs in another process (a client of the owner's socket,
// as from a terminal), taken from a snapshot (the default), and then while one is taken the old way,
// holding the session for its whole length (COLBENCH_BACKUP_SNAPSHOT=off). Printed: the time from a
// key press to the next pair in hand, p50/p95/max, in each phase, and p95 during each backup against
// p95 without one, measured in the same run.
//
//   npx tsx bench/backup-embedded.ts [episodes=10000] [annotators=10] [seconds-without-backup=20]
//   (COLBENCH_BENCH_BACKUP_CACHE=DIR keeps the data folder made once and times a copy of it later)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { openDatabase, type Database } from "../lib/db/open";
import { storeFor, type Store } from "../lib/store";
import { projectRoot } from "../lib/paths";
import { label, nextPair, openDesk } from "../lib/label/desk";
import { userViewer } from "../lib/access/viewer";
import { describeTimes, percentile } from "./labelling-load";
import { makeBackupData, TURNS } from "./backup-data";

const EPISODES = Number(process.argv[2] ?? 10_000);
const ANNOTATORS = Number(process.argv[3] ?? 10);
const QUIET_SECONDS = Number(process.argv[4] ?? 20);
const THINK: [number, number] = [200, 600];
const bin = path.join(projectRoot, "cli", "bin.mjs");

async function makeDataSet(dir: string): Promise<void> {
  const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  try {
    await makeBackupData(db, { episodes: EPISODES, annotators: ANNOTATORS });
  } finally {
    await db.close();
  }
}

/** Annotators label until `until` resolves; returns key press → next pair in hand, in ms. */
async function label_(store: Store, queueId: number, until: Promise<unknown>): Promise<number[]> {
  let stop = false;
  void until.then(() => (stop = true));
  const times: number[] = [];
  const users = (await store.users.list()).filter((u) => u.name.startsWith("bench-annotator")).slice(0, ANNOTATORS);
  await Promise.all(
    users.map(async (user) => {
      const desk = await openDesk(store, userViewer(user), queueId);
      if ("error" in desk) throw new Error(desk.error);
      let pair = await nextPair(store, desk, []);
      while (pair && !stop) {
        await new Promise((resolve) => setTimeout(resolve, THINK[0] + Math.random() * (THINK[1] - THINK[0])));
        if (stop) break;
        const sent = performance.now();
        const done = await label(store, desk, { itemId: pair.itemId, side: "left", ms: 900, holding: [] });
        times.push(performance.now() - sent);
        if (!done.ok) throw new Error(done.error);
        pair = done.next ?? null;
      }
    }),
  );
  return times;
}

/** `colbench db backup` in another process, as from a terminal; resolves with its wall time (s). */
function backupProcess(dataDir: string, file: string, env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, "db", "backup", file], {
    cwd: projectRoot,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`colbench db backup: ${code}\n${output}`)),
    ),
  );
}

const cache = process.env.COLBENCH_BENCH_BACKUP_CACHE;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-backup-"));
if (cache && fs.existsSync(path.join(cache, "made"))) {
  fs.cpSync(path.join(cache, "data"), dir, { recursive: true });
  console.log(`timing a copy of the data folder kept in ${cache}`);
} else {
  await makeDataSet(dir);
  if (cache) {
    fs.mkdirSync(cache, { recursive: true });
    fs.cpSync(dir, path.join(cache, "data"), { recursive: true });
    fs.writeFileSync(path.join(cache, "made"), new Date().toISOString());
  }
}

let db: Database | undefined;
try {
  // The owner analyses the folder at once (not a few seconds in, inside the timed window), as a
  // studio that has been up a while has.
  process.env.COLBENCH_DB_ANALYZE_AFTER_MS = "0";
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const store = storeFor(db.prisma);
  const queueId = (await store.queues.find("side"))!.id;
  const bytes = fs
    .readdirSync(path.join(dir, "db"), { recursive: true, withFileTypes: true })
    .reduce((n, e) => (e.isFile() ? n + fs.statSync(path.join(e.parentPath, e.name)).size : n), 0);
  console.log(
    `folder: ${EPISODES} episodes of ${TURNS} turns and a queue, ${(bytes / 1e6).toFixed(0)} MB on disk; ${ANNOTATORS} annotators, think ${THINK.join("-")} ms`,
  );

  const quiet = await label_(store, queueId, new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000)));
  const snapshotRun = backupProcess(dir, path.join(dir, "snapshot.backup.gz"));
  const duringSnapshot = await label_(
    store,
    queueId,
    snapshotRun.catch(() => {}),
  );
  const snapshotSeconds = await snapshotRun;
  const heldRun = backupProcess(dir, path.join(dir, "held.backup.gz"), { COLBENCH_BACKUP_SNAPSHOT: "off" });
  const duringHeld = await label_(
    store,
    queueId,
    heldRun.catch(() => {}),
  );
  const heldSeconds = await heldRun;

  const p95 = (xs: number[]) => percentile(xs, 0.95);
  const max = (xs: number[]) => Math.max(...xs).toFixed(0);
  console.log(`label → next pair, ms                     n     p50/p95/p99          max`);
  console.log(
    `without a backup (${QUIET_SECONDS} s)              ${String(quiet.length).padStart(5)}  ${describeTimes(quiet)}  ${max(quiet)}`,
  );
  console.log(
    `during a snapshot backup (${snapshotSeconds.toFixed(1)} s)    ${String(duringSnapshot.length).padStart(5)}  ${describeTimes(duringSnapshot)}  ${max(duringSnapshot)}`,
  );
  console.log(
    `during a held-session backup (${heldSeconds.toFixed(1)} s) ${String(duringHeld.length).padStart(5)}  ${describeTimes(duringHeld)}  ${max(duringHeld)}`,
  );
  console.log(
    `p95 ratio to no backup: snapshot ${(p95(duringSnapshot) / p95(quiet)).toFixed(2)}x (goal ≤ 2x), held session ${(p95(duringHeld) / p95(quiet)).toFixed(2)}x`,
  );
  for (const name of ["snapshot", "held"]) {
    const file = path.join(dir, `${name}.backup.gz`);
    console.log(`  ${name}.backup.gz: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
  }
} finally {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
