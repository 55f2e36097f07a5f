import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { seedFromImage } from "./cluster-image";
import { PgliteServer } from "./pglite-server";
import { PreparedStatements, textParsers } from "./prepared-statements";
import { SessionGate } from "./session-gate";
import { folderSnapshots, removeStaleSnapshots } from "./snapshot";
import { keepStatistics, STALE_TABLES_SQL, type StatisticsKeeper } from "./statistics";
import type { ArrayType, HostInit, RawResult, Request, ToHost, ToWorker, WireError } from "./worker-protocol";

// The embedded database's own thread. PGlite is WebAssembly that runs to completion on whatever
// thread calls it, so it lives here and not on the studio's event loop: the socket server (every
// client's bytes), the session gate, ANALYZE and every query of the owner's own Prisma client run
// on this thread, and the owner's thread only sends SQL and receives rows.

const port = parentPort!;
const init = workerData as HostInit;
const send = (message: ToHost, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer ?? []);

function wireError(error: unknown): WireError {
  const e = error as Error & Record<string, unknown>;
  const out: WireError = {
    message: e?.message ?? String(error),
    name: e?.name ?? "Error",
    stack: e?.stack,
    code: typeof e?.code === "string" ? e.code : undefined,
  };
  // PGlite's DatabaseError: PostgreSQL's fields (code, detail, constraint, …) travel with it.
  if (e && typeof e === "object" && "severity" in e) {
    out.database = {};
    for (const [key, value] of Object.entries(e))
      if (value === undefined || ["string", "number"].includes(typeof value)) out.database[key] = value;
  }
  return out;
}

interface OpenTransaction {
  tx: Transaction;
  finish(): void;
  result: Promise<unknown>;
}

async function main(): Promise<void> {
  let pg: PGlite | undefined;
  let server: PgliteServer | undefined;
  let statistics: StatisticsKeeper | undefined;
  try {
    // PGlite does not create parent folders.
    if (init.dataDir) {
      fs.mkdirSync(path.dirname(init.dataDir), { recursive: true });
      await seedFromImage(init.dataDir, (line) => process.stderr.write(`${line}\n`));
    }
    pg = await PGlite.create(init.dataDir);
    const gate = new SessionGate();
    // Backups read a copy of the folder (lib/db/snapshot.ts); an in-memory database has none.
    if (init.dataDir) await removeStaleSnapshots(path.resolve(init.dataDir));
    const options = {
      snapshots: init.dataDir ? folderSnapshots(path.resolve(init.dataDir)) : undefined,
      db: pg,
      gate,
      password: init.password,
      host: init.host,
      idleInTransactionMs: init.idleInTransactionMs,
    };
    try {
      server = new PgliteServer({ ...options, port: init.port ?? 0 });
      await server.start();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || init.strictPort) throw error;
      server = new PgliteServer(options);
      await server.start();
    }
    // The array types there are at start (as PGlite's own parsers know them), for the owner's thread.
    const arrays = (
      await pg.query<ArrayType>(
        `SELECT e."oid", e."typarray" FROM pg_catalog.pg_type t JOIN pg_catalog.pg_type e ON e."oid" = t."typelem" WHERE t."typcategory" = 'A' GROUP BY e."oid", e."typarray"`,
      )
    ).rows;
    if (init.statistics !== false) {
      const db = pg;
      statistics = keepStatistics(
        {
          analyzeAll: () => gate.run(() => db.exec("ANALYZE")),
          stale: () =>
            gate.run(async () => {
              // This session's counts reach pg_stat_user_tables when it next reports them; now, not in a second.
              await db.query("SELECT pg_catalog.pg_stat_force_next_flush()");
              return (await db.query<{ name: string }>(STALE_TABLES_SQL)).rows.map((row) => row.name);
            }),
          analyze: (tables) => gate.run(() => db.exec(`ANALYZE ${tables.join(", ")}`)),
        },
        init.statistics ?? {},
      );
    }
    serve(pg, server, gate, () => statistics?.stop());
    send({ kind: "ready", port: server.address.port, arrays });
  } catch (error) {
    await server?.close().catch(() => {});
    await pg?.close().catch(() => {});
    send({ kind: "failed", error: wireError(error) });
    port.close();
  }
}

/** PGlite's result as the host expects it: rows and fields, and the counts a command reports. */
const plainResult = (result: {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
  rowCount?: number;
  command?: string;
}): RawResult => ({
  rows: result.rows as RawResult["rows"],
  fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  affectedRows: result.affectedRows,
  rowCount: result.rowCount,
  command: result.command,
});

/**
 * Opens PGlite's transaction as `id` and resolves once it is entered; it stays open until the host
 * commits or rolls it back, and then lets the gate go (`release`).
 */
function beginTransaction(
  pg: PGlite,
  transactions: Map<number, OpenTransaction>,
  id: number,
  release: () => void,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let finish!: () => void;
    const finished = new Promise<void>((done) => (finish = done));
    let entered = false;
    const result = pg.transaction(async (tx) => {
      entered = true;
      transactions.set(id, { tx, finish, result });
      resolve(id);
      await finished;
    });
    result
      .catch((error: unknown) => {
        if (!entered) reject(error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => {
        transactions.delete(id);
        release();
      });
  });
}

function serve(
  pg: PGlite,
  server: PgliteServer,
  gate: SessionGate,
  stopStatistics: () => Promise<void> | undefined,
): void {
  const raw = textParsers(pg);
  const prepared = new PreparedStatements(pg);
  const transactions = new Map<number, OpenTransaction>();
  const listening = new Map<string, () => void>();
  let nextTransaction = 1;
  let closing: Promise<void> | null = null;

  const target = (tx: number | undefined) => {
    if (tx === undefined) return undefined;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is no longer open`);
    return open.tx;
  };

  async function handle(request: Request): Promise<unknown> {
    switch (request.op) {
      case "query": {
        // In the owner's open transaction the session is the owner's already; otherwise wait for it.
        if (request.tx !== undefined) {
          target(request.tx);
          return prepared.query(request.sql, request.params);
        }
        return gate.run(() => prepared.query(request.sql, request.params));
      }
      case "exec": {
        const tx = target(request.tx);
        const results = tx
          ? await tx.exec(request.sql, { rowMode: "array", parsers: raw })
          : await gate.run(() => pg.exec(request.sql, { rowMode: "array", parsers: raw }));
        return results.map(plainResult);
      }
      case "begin": {
        // The gate is held from BEGIN to COMMIT: nobody's statements land inside this transaction.
        const release = await gate.acquire();
        return beginTransaction(pg, transactions, nextTransaction++, release);
      }
      case "commit":
      case "rollback": {
        const open = transactions.get(request.tx);
        if (!open) throw new Error(`transaction ${request.tx} is no longer open`);
        if (request.op === "rollback" && !open.tx.closed) await open.tx.rollback();
        open.finish();
        await open.result;
        return undefined;
      }
      case "listen": {
        if (!listening.has(request.channel)) {
          listening.set(request.channel, () => {});
          const off = await server.listen(request.channel, (payload) =>
            send({ kind: "notification", channel: request.channel, payload }),
          );
          listening.set(request.channel, off);
        }
        return undefined;
      }
      case "unlisten": {
        listening.get(request.channel)?.();
        listening.delete(request.channel);
        return undefined;
      }
      case "notify":
        server.notify(request.channel, request.payload);
        return undefined;
      case "inTransaction":
        return gate.run(async () => pg.isInTransaction());
      case "connections":
        return server.connections;
      case "close":
        closing ??= (async () => {
          await stopStatistics();
          // An owner's transaction still open as the owner closes is rolled back (and lets the gate go).
          for (const open of transactions.values()) {
            await open.tx.rollback().catch(() => {});
            open.finish();
          }
          await server.close();
          await pg.close();
        })();
        return closing;
    }
  }

  port.on("message", ({ id, request }: ToWorker) => {
    handle(request).then(
      (value) => send({ kind: "reply", id, value }),
      (error: unknown) => send({ kind: "error", id, error: wireError(error) }),
    );
  });
}

await main();
