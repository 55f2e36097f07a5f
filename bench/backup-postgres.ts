// Are `colbench db backup` and `colbench db restore` at pg_dump's pace on PostgreSQL? Starts a
// throwaway cluster, fills a database through the store (bench/backup-data.ts: 10,000 episodes of 10
// turns by default, ~100 MB), then in the same run, on the same database: `colbench db backup` against
// `pg_dump -Fc`, and `colbench db restore` of that file into an empty database against `pg_restore`
// of the dump into another. Each as its own process, timed by /usr/bin/time (wall and CPU seconds),
// `repeats` times each, alternating; printed: the medians and colbench's ratio to its peer (goal ≤ 1.5x).
//
//   npx tsx bench/backup-postgres.ts [episodes=10000] [repeats=2]
//   (COLBENCH_BENCH_OLD_CLI=PATH/cli/bin.mjs: also times another checkout's backup once, as "before";
//   with COLBENCH_BENCH_OLD_RESTORE=1 its restore too, which took minutes before COPY)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { openDatabase } from "../lib/db/open";
import { startPostgres } from "../lib/db/testing/postgres-server";
import { findPgBinDir } from "../lib/db/pg-binaries";
import { projectRoot } from "../lib/paths";
import { makeBackupData } from "./backup-data";

const EPISODES = Number(process.argv[2] ?? 10_000);
const REPEATS = Number(process.argv[3] ?? 2);
const bin = findPgBinDir()!;
const colbench = path.join(projectRoot, "cli", "bin.mjs");

interface Timed {
  wall: number;
  cpu: number;
}

/** Runs a command under /usr/bin/time; its wall and user+system CPU seconds (children included). */
function timed(command: string, args: string[], env: Record<string, string> = {}): Promise<Timed> {
  const child = spawn("/usr/bin/time", ["-f", "TIMED %e %U %S", command, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      const found = /TIMED ([\d.]+) ([\d.]+) ([\d.]+)/.exec(output);
      if (code !== 0 || !found) return reject(new Error(`${command} ${args.join(" ")}: exit ${code}\n${output}`));
      resolve({ wall: Number(found[1]), cpu: Number(found[2]) + Number(found[3]) });
    }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-pg-backup-"));
const server = await startPostgres();
try {
  const source = await server.createDatabase("bench_source");
  const db = await openDatabase({ url: source });
  try {
    await makeBackupData(db, { episodes: EPISODES, annotators: 10 });
  } finally {
    await db.close();
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: source });
  await client.connect();
  await client.query("VACUUM ANALYZE");
  const size = (await client.query<{ n: string }>("SELECT pg_database_size(current_database()) AS n")).rows[0]!.n;
  const rows = (await client.query<{ n: string }>("SELECT sum(n_live_tup) AS n FROM pg_stat_user_tables")).rows[0]!.n;
  await client.end();
  console.log(`source database: ${(Number(size) / 1e6).toFixed(0)} MB, ${rows} rows; ${os.cpus().length} cores`);

  const env = { DATABASE_URL: source, COLBENCH_DATA: dir };
  const times: Record<string, Timed[]> = { backup: [], dump: [], restore: [], pgRestore: [] };
  for (let i = 0; i < REPEATS; i++) {
    const file = path.join(dir, `colbench-${i}.backup.gz`);
    const dump = path.join(dir, `pg-${i}.dump`);
    times.backup!.push(await timed(process.execPath, [colbench, "db", "backup", file], env));
    times.dump!.push(await timed(path.join(bin, "pg_dump"), ["-Fc", "-f", dump, "-d", source]));
    const into = await server.createDatabase(`bench_restore_${i}`);
    times.restore!.push(await timed(process.execPath, [colbench, "db", "restore", file, "--into", into], env));
    const pgInto = await server.createDatabase(`bench_pg_restore_${i}`);
    times.pgRestore!.push(await timed(path.join(bin, "pg_restore"), ["-d", pgInto, "--no-owner", dump]));
    if (i === 0) {
      const mb = (f: string) => (fs.statSync(f).size / 1e6).toFixed(1);
      console.log(`files: colbench ${mb(file)} MB, pg_dump -Fc ${mb(dump)} MB`);
    }
  }
  const old = process.env.COLBENCH_BENCH_OLD_CLI;
  if (old) {
    const file = path.join(dir, "old.backup.gz");
    times.oldBackup = [await timed(process.execPath, [old, "db", "backup", file], env)];
    if (process.env.COLBENCH_BENCH_OLD_RESTORE === "1") {
      const into = await server.createDatabase("bench_old_restore");
      times.oldRestore = [await timed(process.execPath, [old, "db", "restore", file, "--into", into], env)];
    }
    console.log(`  the other checkout's file: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
  }
  const cell = (t: Timed[]) =>
    `${median(t.map((x) => x.wall))
      .toFixed(1)
      .padStart(6)} s wall ${median(t.map((x) => x.cpu))
      .toFixed(1)
      .padStart(6)} s CPU   (${t.map((x) => x.wall.toFixed(1)).join(", ")})`;
  console.log(`medians of ${REPEATS}, alternating:`);
  console.log(`colbench db backup    ${cell(times.backup!)}`);
  console.log(`pg_dump -Fc           ${cell(times.dump!)}`);
  console.log(`colbench db restore   ${cell(times.restore!)}`);
  console.log(`pg_restore            ${cell(times.pgRestore!)}`);
  if (old) {
    console.log(`before (${old}), once:`);
    console.log(`colbench db backup    ${cell(times.oldBackup!)}`);
    if (times.oldRestore) console.log(`colbench db restore   ${cell(times.oldRestore)}`);
  }
  const ratio = (a: Timed[], b: Timed[]) => (median(a.map((x) => x.wall)) / median(b.map((x) => x.wall))).toFixed(2);
  console.log(
    `wall ratio: backup ${ratio(times.backup!, times.dump!)}x pg_dump, restore ${ratio(times.restore!, times.pgRestore!)}x pg_restore (goal ≤ 1.5x)`,
  );
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
