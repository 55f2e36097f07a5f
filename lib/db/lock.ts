import fs from "node:fs";
import path from "node:path";

/**
 * Who owns a PGlite data folder. PGlite has no lock of its own and two processes opening one folder
 * silently lose data, so exactly one process (the owner) opens it and serves it on a local socket;
 * every other process is a client of that socket. The lock file beside the folder says who owns it
 * and where it serves. It outlives its owner (marked "closed") so that the next owner serves at the
 * same address and clients still running reconnect without noticing.
 */
export interface LockInfo {
  pid: number;
  /** "opening": the owner is starting PGlite (clients wait); "serving": clients may connect; "closed": free. */
  state: "opening" | "serving" | "closed";
  command: string;
  /** postgresql://colbench:PASSWORD@127.0.0.1:PORT/postgres: the owner's socket (the file is readable by its user only). */
  url?: string;
  /** The studio's HTTP port, when the owner is `colbench serve`. */
  port?: number;
  since: string;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(lockPath: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath, "utf8")) as LockInfo;
    // Locks written before owners served a socket had no state: their owner held the folder.
    return { ...info, state: info.state ?? "opening" };
  } catch {
    return undefined;
  }
}

// Folders this process owns now: a lock naming this pid that is not here was left by an earlier
// process that had the same pid (containers restart with small pids).
const ownedHere = new Set<string>();

/** The owner of the folder now, if a live process holds it. */
export function liveOwner(lockPath: string): LockInfo | undefined {
  const info = readLock(lockPath);
  if (!info || info.state === "closed" || !alive(info.pid)) return undefined;
  if (info.pid === process.pid && !ownedHere.has(path.resolve(lockPath))) return undefined;
  return info;
}

function writeLock(lockPath: string, info: LockInfo): void {
  // Written whole and renamed into place: a reader never sees half a file.
  const tmp = `${lockPath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info), { mode: 0o600 });
  fs.renameSync(tmp, lockPath);
}

export type Ownership =
  | { role: "owner"; previous?: LockInfo; update: (patch: Partial<LockInfo>) => void; release: () => void }
  | { role: "client"; holder: LockInfo };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the folder (role "owner") when no live process holds it, else names the live owner
 * (role "client") once it serves. Changes of hands go through a short-lived `.take` file created
 * exclusively, so two processes that find the same dead owner never both take over.
 */
export async function acquireOwnership(lockPath: string, command: string, waitMs = 180_000): Promise<Ownership> {
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  const takePath = `${lockPath}.take`;
  const deadline = Date.now() + waitMs;
  for (let round = 0; ; round++) {
    const holder = liveOwner(lockPath);
    if (holder) {
      if (holder.state === "serving" && holder.url) return { role: "client", holder };
      // The owner is still opening PGlite (a first start or WAL recovery takes seconds).
      if (Date.now() > deadline)
        throw new Error(
          `the database folder's owner, process ${holder.pid} (${holder.command}), has not started serving within ${waitMs / 1000} s (lock: ${lockPath})`,
        );
      await sleep(100);
      continue;
    }
    if (!takeExclusive(takePath)) {
      if (Date.now() > deadline) throw new Error(`could not take the database lock ${lockPath} (${takePath} stays)`);
      await sleep(25 + (round % 4) * 25);
      continue;
    }
    try {
      const previous = readLock(lockPath);
      if (liveOwner(lockPath)) continue; // someone took it between our two reads
      ownedHere.add(path.resolve(lockPath));
      writeLock(lockPath, {
        pid: process.pid,
        state: "opening",
        command,
        url: previous?.url,
        since: new Date().toISOString(),
      });
      return {
        role: "owner",
        previous,
        update: (patch) => {
          const now = readLock(lockPath);
          if (now?.pid === process.pid) writeLock(lockPath, { ...now, ...patch });
        },
        release: () => {
          const now = readLock(lockPath);
          if (now?.pid === process.pid) writeLock(lockPath, { ...now, state: "closed", port: undefined });
          ownedHere.delete(path.resolve(lockPath));
        },
      };
    } finally {
      fs.rmSync(takePath, { force: true });
    }
  }
}

/**
 * A lock whose owner's socket refuses connections was left by a process whose pid now belongs to
 * another program: mark it closed (if it still says the same) so the next attempt takes over.
 */
export async function forgetUnreachableOwner(lockPath: string, holder: LockInfo): Promise<void> {
  const takePath = `${lockPath}.take`;
  for (let i = 0; i < 200 && !takeExclusive(takePath); i++) await sleep(25);
  try {
    const now = readLock(lockPath);
    if (now && now.pid === holder.pid && now.since === holder.since) writeLock(lockPath, { ...now, state: "closed" });
  } finally {
    fs.rmSync(takePath, { force: true });
  }
}

/** Creates the `.take` file; one left by a process that died in the middle of a take-over is cleared. */
function takeExclusive(takePath: string): boolean {
  try {
    fs.writeFileSync(takePath, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    try {
      const pid = Number(fs.readFileSync(takePath, "utf8"));
      const age = Date.now() - fs.statSync(takePath).mtimeMs;
      if ((!pid || !alive(pid)) && age > 2000) fs.rmSync(takePath, { force: true });
    } catch {
      // gone already
    }
    return false;
  }
}

/** Records the studio's port once it listens, so other commands can point people at it. */
export function updateLock(lockPath: string, patch: Partial<LockInfo>): void {
  const current = readLock(lockPath);
  if (current?.pid !== process.pid) return;
  writeLock(lockPath, { ...current, ...patch });
}
