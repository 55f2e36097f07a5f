import fs from "node:fs";
import { migrationNames } from "../db/migration-files";
import { pgliteDirFromEnv, redact } from "../db/location";
import type { Database } from "../db/open";
import { liveOwner } from "../db/lock";
import { storeFor } from "../store";
import { within } from "./proc";
import { part, type Part } from "./types";

/** How long opening and asking the database may take before it counts as unreachable. */
const ANSWER_MS = 15_000;

const URL_FIX =
  "set DATABASE_URL to postgresql://USER:PASSWORD@HOST:5432/DATABASE, or unset it to use the embedded database";

/** Why DATABASE_URL cannot name a PostgreSQL server, or undefined when it can. */
function badUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    // "host:5432/db" and "user:password@host/db" parse as URLs of a scheme named after their first word.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new Error("no scheme");
    parsed = new URL(url);
  } catch {
    // Not echoed: a mistyped URL still holds its password.
    return "DATABASE_URL is set but is not a URL";
  }
  if (parsed.protocol !== "postgresql:" && parsed.protocol !== "postgres:")
    return `DATABASE_URL is a ${parsed.protocol.replace(/:$/, "")} URL, not postgresql://`;
  if (!parsed.hostname && !parsed.searchParams.get("host")) return `DATABASE_URL ${redact(url)} names no host`;
  return undefined;
}

/** The driver's own words: Prisma wraps them in lines about the call ("Invalid `prisma.$queryRawUnsafe()` invocation"). */
function reasonOf(error: unknown): string {
  const message = String((error as Error)?.message ?? error);
  const quoted = /Message: `([^`]+)`/.exec(message)?.[1];
  if (quoted) return quoted;
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? "no reason given";
}

function late<T>(promise: Promise<T>, what: string): Promise<T> {
  return within(promise, ANSWER_MS, () => {
    throw new Error(`${what} did not answer within ${ANSWER_MS / 1000} s`);
  });
}

/**
 * The database this process uses: kind, where, who owns it (embedded), whether its migrations are
 * current, and what it holds. `open` is how to reach it when the caller has none open (the CLI).
 */
export async function checkDatabase(db: Database | undefined, open: () => Promise<Database>): Promise<Part> {
  let opened: Database | undefined;
  const folder = pgliteDirFromEnv();
  const configured = process.env.DATABASE_URL;
  const wrong = !db && configured ? badUrl(configured) : undefined;
  if (wrong) {
    return part({
      id: "database",
      name: "Database",
      status: "missing",
      required: true,
      summary: `${wrong}: the studio cannot open its database`,
      fix: URL_FIX,
      details: { kind: "postgresql" },
    });
  }
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
    const database = db ?? (opened = await late(open(), "the database"));
    // Opening does not connect, and reading the migrations takes a failure for "none yet": ask it something.
    const store = storeFor(database.prisma);
    await late(store.system.ping(), "the database");
    const recorded = await store.system.migrations();
    const counts = recorded.length ? await store.system.counts() : { tasks: 0, runs: 0, episodes: 0, turns: 0 };
    const pending = migrationNames().filter((name) => !recorded.includes(name));
    // Pending migrations are applied when the studio starts; on a server that needs the right to create tables.
    const mayCreate =
      pending.length && database.kind === "postgresql" ? await store.system.createPrivilege() : undefined;
    if (mayCreate && !mayCreate.may) {
      return part({
        id: "database",
        name: "Database",
        status: "missing",
        required: true,
        summary: `PostgreSQL server ${database.location}: ${pending.length} migration(s) pending, and the user ${mayCreate.who} may not create tables in the schema ${mayCreate.schema}, so the studio cannot apply them`,
        fix: `as the database's owner: \`GRANT CREATE ON SCHEMA ${mayCreate.schema} TO ${mayCreate.who}\`, or run \`npx colbench db migrate\` with the owner's URL`,
        details: {
          kind: database.kind,
          location: database.location,
          migrations: { applied: recorded.length, pending },
          user: mayCreate.who,
          schema: mayCreate.schema,
        },
      });
    }
    // The run queue lives on a PostgreSQL server only (DATABASE_URL): its workers and what waits.
    const queue =
      database.kind === "postgresql" && recorded.length
        ? { workers: (await store.workers.list()).length, waiting: await store.workers.queueDepth() }
        : null;
    const queueText = queue
      ? `; run queue: ${queue.waiting === null ? "not used yet" : `${queue.waiting} job(s) waiting`}, ${queue.workers} worker(s)`
      : "";
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
      fix: pending.length
        ? "apply them: `npx colbench db migrate` (the studio also applies them when it starts)"
        : undefined,
      details: {
        kind: database.kind,
        role: database.role,
        location: database.location,
        owner: owner
          ? {
              pid: owner.pid,
              command: owner.command,
              state: owner.state,
              since: owner.since,
              address: socket ? `${socket.hostname}:${socket.port}` : null,
            }
          : null,
        migrations: { applied: recorded.length, pending },
        counts,
        ...(queue ? { queue } : {}),
      },
    });
  } catch (error) {
    const url = db ? (db.kind === "postgresql" ? db.location : undefined) : configured;
    const reason = reasonOf(error);
    return part({
      id: "database",
      name: "Database",
      status: "missing",
      required: true,
      summary: `cannot reach ${url ? `the PostgreSQL server ${redact(url)} (DATABASE_URL)` : "the embedded database"}: ${reason}`,
      fix: url
        ? "start that server, or correct DATABASE_URL (unset it to use the embedded database)"
        : "check that the data folder (COLBENCH_DATA, default ./data) is writable; `npx colbench db migrate` shows the full error",
      details: { kind: url ? "postgresql" : "pglite", ...(url ? { location: redact(url) } : {}), reachable: false },
    });
  } finally {
    await opened?.close().catch(() => {});
  }
}
