import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";

// A copy of the embedded database's folder for a backup, made by its owner so that the backup reads
// its rows from the copy (opened by a PGlite of its own, in the backup's process) and the studio's
// session is held only for a moment. PGlite writes its files only while a statement runs, and every
// statement runs behind the session gate, so the folder copied behind the gate is the database as
// after its last commit; the copy's first open recovers from the write-ahead log like a server
// after a power cut (synchronous_commit is on: every acknowledged commit is in the log). PGlite's
// own clone() copies the folder the same way, whole and behind its lock.
//
// Copying a 300 MB folder takes about a second, too long to hold the session, so it goes in two
// steps: every file is copied while the studio goes on (each file's size, times and inode noted
// before it is read), then, behind the gate, every file that changed since (or was written in the
// last seconds before the copy started, whose coarse timestamps cannot tell) is copied again, new
// files are copied and removed ones removed. Every file of the result is then its content behind
// the gate, as if the whole folder had been copied there.

/** The statement a client of the owner's socket sends for a copy; PostgreSQL and older owners refuse it (42883). */
export const SNAPSHOT_STATEMENT = "SELECT colbench_snapshot_folder()";
/** The columns of the answer: the copy's folder, and when it was taken (ISO 8601). */
export const SNAPSHOT_COLUMNS = ["folder", "taken_at"] as const;

const SNAPSHOT_NAME = /\.snapshot-[0-9a-f]{12}$/;
const STALE_MS = 60 * 60 * 1000;
/** Files written this long before the first pass are copied again behind the gate (file times are coarse). */
const UNSURE_MS = 2_000;

export interface SnapshotCopy {
  folder: string;
  /** Brings the copy up to date: call it holding the session gate. Returns when the snapshot is as of. */
  finish(): { takenAt: string; recopied: number };
  /** Removes the copy (the first pass failed, or its client left before it was finished). */
  discard(): Promise<void>;
}

export interface SnapshotMaker {
  /** The first pass: copies the folder while the studio goes on (not holding the gate). */
  start(): Promise<SnapshotCopy>;
  /** Removes a copy (its client left). */
  drop(folder: string): Promise<void>;
}

interface Seen {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

const same = (a: Seen, b: Seen) =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;

/** Copies of `dataDir` beside it (same file system), named `<dataDir>.snapshot-<random>`. */
export function folderSnapshots(dataDir: string): SnapshotMaker {
  const drop = async (folder: string) => {
    if (path.dirname(folder) !== path.dirname(dataDir) || !SNAPSHOT_NAME.test(folder)) return;
    await fsp.rm(folder, { recursive: true, force: true });
  };
  return {
    drop,
    async start() {
      const folder = `${dataDir}.snapshot-${randomBytes(6).toString("hex")}`;
      const started = Date.now();
      const seen = new Map<string, Seen>();
      try {
        await copyTree(dataDir, folder, "", seen);
      } catch (error) {
        await drop(folder);
        throw error;
      }
      return {
        folder,
        finish: () => {
          const recopied = updateTree(dataDir, folder, seen, started - UNSURE_MS);
          return { takenAt: new Date().toISOString(), recopied };
        },
        discard: () => drop(folder),
      };
    },
  };
}

/** The first pass, asynchronous (the database's thread goes on serving): each file's state is noted before it is read. */
async function copyTree(from: string, to: string, under: string, seen: Map<string, Seen>): Promise<void> {
  await fsp.mkdir(path.join(to, under), { recursive: true });
  const entries = await fsp.readdir(path.join(from, under), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) await copyTree(from, to, relative, seen);
    else if (entry.isFile()) files.push(relative);
  }
  // A few at a time: the copies run on libuv's threads.
  for (let i = 0; i < files.length; i += 8) {
    await Promise.all(
      files.slice(i, i + 8).map(async (relative) => {
        const stat = await fsp.stat(path.join(from, relative)).catch(() => undefined);
        if (!stat) return; // removed meanwhile: the second pass sees it is gone
        seen.set(relative, stat);
        await fsp.copyFile(path.join(from, relative), path.join(to, relative)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        });
      }),
    );
  }
}

/** The second pass, behind the gate: returns how many files it copied again. */
function updateTree(from: string, to: string, seen: Map<string, Seen>, unsureAfter: number): number {
  let recopied = 0;
  const present = new Set<string>();
  const walk = (under: string) => {
    fs.mkdirSync(path.join(to, under), { recursive: true });
    for (const entry of fs.readdirSync(path.join(from, under), { withFileTypes: true })) {
      const relative = path.join(under, entry.name);
      if (entry.isDirectory()) {
        walk(relative);
        continue;
      }
      if (!entry.isFile()) continue;
      present.add(relative);
      const now = fs.statSync(path.join(from, relative));
      const before = seen.get(relative);
      if (before && same(before, now) && now.mtimeMs < unsureAfter && now.ctimeMs < unsureAfter) continue;
      fs.copyFileSync(path.join(from, relative), path.join(to, relative));
      recopied++;
    }
  };
  walk("");
  for (const relative of seen.keys()) if (!present.has(relative)) fs.rmSync(path.join(to, relative), { force: true });
  return recopied;
}

/**
 * Copies a crashed owner or backup left behind (their clients' connections ended long ago): called
 * by a new owner. A copy younger than an hour may still be read by a backup that outlived its owner.
 */
export async function removeStaleSnapshots(dataDir: string): Promise<void> {
  const parent = path.dirname(dataDir);
  const base = path.basename(dataDir);
  const names = await fsp.readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(`${base}.snapshot-`) || !SNAPSHOT_NAME.test(name)) continue;
    const found = await fsp.stat(path.join(parent, name)).catch(() => undefined);
    if (found && Date.now() - found.mtimeMs > STALE_MS)
      await fsp.rm(path.join(parent, name), { recursive: true, force: true });
  }
}
