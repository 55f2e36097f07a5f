import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Database } from "../open";
import type { BackupResult } from "./write";
import { writeBackupApart } from "./write-thread";
import { processSlot } from "../../process-slot";

// The one way anything takes a backup of the open database: `colbench db backup`, the System page's
// button and `colbench serve --backup-every`. It reads through `db.url`, the URL every other process
// uses: a PostgreSQL server, or the embedded owner's socket, where the owner copies its folder for the
// backup to read apart (lib/db/snapshot.ts), holding its session only for a moment. It runs on a
// thread of its own at a lower priority (./write-thread.ts).

export async function backupDatabase(
  db: Database,
  file: string,
  options: { renders?: string; snapshot?: boolean } = {},
): Promise<BackupResult> {
  if (!db.url) throw new Error(`the ${db.kind} database at ${db.location} has no URL to read a backup through`);
  return writeBackupApart({ url: db.url, kind: db.kind, location: db.location }, file, options);
}

/** What the System page shows: the backups taken on this machine, newest last (<data dir>/backups.jsonl). */
export interface BackupRecord {
  file: string;
  takenAt: string;
  finishedAt: string;
  bytes: number;
  rows: number;
  files: number;
  by: string;
  error?: string;
}

export function backupLogPath(dataDir: string): string {
  return path.join(dataDir, "backups.jsonl");
}

export function recordBackup(dataDir: string, record: BackupRecord): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.appendFileSync(backupLogPath(dataDir), JSON.stringify(record) + "\n", { mode: 0o600 });
}

export function lastBackups(dataDir: string, count = 5): BackupRecord[] {
  try {
    const lines = fs.readFileSync(backupLogPath(dataDir), "utf8").trim().split("\n").filter(Boolean);
    return lines.slice(-count).map((line) => JSON.parse(line) as BackupRecord);
  } catch {
    return [];
  }
}

export function recordOf(result: BackupResult, by: string): BackupRecord {
  return {
    file: result.file,
    takenAt: result.takenAt,
    finishedAt: result.finishedAt,
    bytes: result.bytes,
    rows: Object.values(result.rows).reduce((a, b) => a + b, 0),
    files: result.files,
    by,
  };
}

const NAME = /^colbench-\d{8}T\d{6}Z\.backup\.gz$/;

/** A backup file in `dir` named by the time it starts: colbench-20261126T103000Z.backup.gz. */
export function backupFileName(at = new Date()): string {
  return `colbench-${at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}.backup.gz`;
}

/** Deletes all but the newest `keep` backups this studio named in `dir`; returns what it deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return [];
  const ours = fs
    .readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of old) fs.rmSync(path.join(dir, name), { force: true });
  return old;
}

/** A backup file as it lies in the folder now. */
export interface BackupFile {
  name: string;
  file: string;
  bytes: number;
  /** When it was started (from its name). */
  takenAt: string;
  /** When it was last written. */
  modifiedAt: string;
}

/**
 * The backups this studio named that exist in `dir`, newest first. Read from the folder, not from
 * backups.jsonl: rotation deletes files the log still lists.
 */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const names = (await fsp.readdir(/*turbopackIgnore: true*/ dir).catch(() => [] as string[])).filter((name) =>
    NAME.test(name),
  );
  const found = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const stat = await fsp.stat(/*turbopackIgnore: true*/ file).catch(() => undefined);
      if (!stat?.isFile()) return undefined;
      const [, d, t] = /^colbench-(\d{8})T(\d{6})Z/.exec(name)!;
      const takenAt = `${d!.slice(0, 4)}-${d!.slice(4, 6)}-${d!.slice(6, 8)}T${t!.slice(0, 2)}:${t!.slice(2, 4)}:${t!.slice(4, 6)}.000Z`;
      return { name, file, bytes: stat.size, takenAt, modifiedAt: stat.mtime.toISOString() };
    }),
  );
  return found.filter((b): b is BackupFile => b !== undefined).sort((a, b) => b.name.localeCompare(a.name));
}

/** The schedule `colbench serve --backup-every` runs in this process, for the System page (same process, other bundle). */
export interface BackupSchedule {
  everyMs: number;
  dir: string;
  keep?: number;
  /** When the next scheduled backup starts (ISO 8601). */
  nextAt: string;
}

const scheduleSlot = processSlot<BackupSchedule>("colbench.backupSchedule");

/** This process's backup schedule, or null when it was started without one. */
export function backupSchedule(): BackupSchedule | null {
  return scheduleSlot.get() ?? null;
}

/** Takes a backup into `dir` under a dated name, records it, and keeps the newest `keep`. */
export async function backupInto(
  db: Database,
  dir: string,
  options: { keep?: number; renders?: string; dataDir: string; by: string },
): Promise<BackupRecord> {
  const started = new Date();
  try {
    const result = await backupDatabase(db, path.join(dir, backupFileName(started)), { renders: options.renders });
    const record = recordOf(result, options.by);
    recordBackup(options.dataDir, record);
    if (options.keep) pruneBackups(dir, options.keep);
    return record;
  } catch (error) {
    const record: BackupRecord = {
      file: path.join(dir, backupFileName(started)),
      takenAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      bytes: 0,
      rows: 0,
      files: 0,
      by: options.by,
      error: (error as Error).message,
    };
    recordBackup(options.dataDir, record);
    throw error;
  }
}

/** "6h", "30m", "1d", "90s" in milliseconds. */
export function parseEvery(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`--backup-every: "${text}" is not a duration like 6h, 30m, 1d or 90s`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "s" | "m" | "h" | "d"];
  const ms = Number(match[1]) * unit;
  if (ms < 1_000) throw new Error(`--backup-every: "${text}" is shorter than a second`);
  return ms;
}

/** Backups every `everyMs` until stopped; a failed one is recorded and said on stderr, and the next is still taken. */
export function scheduleBackups(
  db: Database,
  options: { everyMs: number; dir: string; keep?: number; renders?: string; dataDir: string },
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const schedule: BackupSchedule = {
    everyMs: options.everyMs,
    dir: options.dir,
    keep: options.keep,
    nextAt: new Date(Date.now() + options.everyMs).toISOString(),
  };
  scheduleSlot.set(schedule);
  const timer = setInterval(() => {
    schedule.nextAt = new Date(Date.now() + options.everyMs).toISOString();
    if (running) return; // the previous one is still writing
    running = backupInto(db, options.dir, { ...options, by: "colbench serve --backup-every" })
      .then((record) =>
        process.stderr.write(
          `colbench serve: backup ${record.file} (${record.rows} rows, ${(record.bytes / 1e6).toFixed(1)} MB)\n`,
        ),
      )
      .catch((error: Error) => process.stderr.write(`colbench serve: the scheduled backup failed: ${error.message}\n`))
      .finally(() => (running = null));
  }, options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (scheduleSlot.get() === schedule) scheduleSlot.set(undefined);
      await running;
    },
  };
}
