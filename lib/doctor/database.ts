import fs from "node:fs";
import { migrationNames } from "../db/migration-files";
import { pgliteDirFromEnv, redact } from "../db/location";
import type { Database } from "../db/open";
import { liveOwner } from "../db/lock";
import { storeFor } from "../store";
import { part, type Part } from "./types";

/**
 * The database this process uses: kind, where, who owns it (embedded), whether its migrations are
 * current, and what it holds. `open` is how to reach it when the caller has none open (the CLI).
 */
export async function checkDatabase(db: Database | undefined, open: () => Promise<Database>): Promise<Part> {
  let opened: Database | undefined;
  const folder = pgliteDirFromEnv();
  if (!db && !process.env.DATABASE_URL && !fs.existsSync(folder) && !liveOwner(`${folder}.lock`)) {
    return part({
      id: "database",
      name: "Database",
      status: "missing",
      // Not yet made is not broken: the first `colbench` command or studio start creates it.
      required: false,
      summary: `embedded PGlite not created yet (${folder})`,
      fix: "`npm run studio` creates it (migrated, with the sample tasks); so does any `npx colbench` command",
      details: { kind: "pglite", location: folder },
    });
  }
  try {
    const database = db ?? (opened = await open());
    const store = storeFor(database.prisma);
    const recorded = await store.system.migrations();
    const counts = recorded.length ? await store.system.counts() : { tasks: 0, runs: 0, episodes: 0, turns: 0 };
    const pending = migrationNames().filter((name) => !recorded.includes(name));
    // The run queue lives on a PostgreSQL server only (DATABASE_URL): its workers and what waits.
    const queue =
      database.kind === "postgresql" && recorded.length
        ? { workers: (await store.workers.list()).length, waiting: await store.workers.queueDepth() }
        : null;
    const queueText = queue ? `; run queue: ${queue.waiting === null ? "not used yet" : `${queue.waiting} job(s) waiting`}, ${queue.workers} worker(s)` : "";
    const owner = database.kind === "pglite" ? database.owner() : undefined;
    const socket = owner?.url ? new URL(owner.url) : undefined;
    const who =
      database.kind === "postgresql"
        ? `server ${database.location}`
        : database.role === "owner" && opened
          ? `${database.location}, no owner was running (opened by this check)`
          : `${database.location}, owner: process ${owner?.pid} (${owner?.command})${socket ? ` serving on ${socket.hostname}:${socket.port}` : ""}`;
    return part({
      id: "database",
      name: "Database",
      status: pending.length ? "degraded" : "ok",
      required: true,
      summary: `${database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"} ${who}; ${pending.length ? `${pending.length} migration(s) pending` : `migrations current (${recorded.length})`}; ${counts.tasks} tasks, ${counts.runs} runs, ${counts.episodes} episodes, ${counts.turns} turns${queueText}`,
      fix: pending.length ? "apply them: `npx colbench db migrate` (the studio also applies them when it starts)" : undefined,
      details: {
        kind: database.kind,
        role: database.role,
        location: database.location,
        owner: owner ? { pid: owner.pid, command: owner.command, state: owner.state, since: owner.since, address: socket ? `${socket.hostname}:${socket.port}` : null } : null,
        migrations: { applied: recorded.length, pending },
        counts,
        ...(queue ? { queue } : {}),
      },
    });
  } catch (error) {
    const url = process.env.DATABASE_URL;
    return part({
      id: "database",
      name: "Database",
      status: "missing",
      required: true,
      summary: `cannot open ${url ? `the PostgreSQL server ${redact(url)}` : "the embedded database"}: ${(error as Error).message}`,
      fix: url ? "start that server or correct DATABASE_URL (unset it to use the embedded database)" : "check that the data folder (COLBENCH_DATA, default ./data) is writable; `npx colbench db migrate` shows the full error",
    });
  } finally {
    await opened?.close().catch(() => {});
  }
}
