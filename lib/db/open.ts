import path from "node:path";
import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { namesStatements, statementNames } from "./statement-names";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrate";
import { refuseNewer } from "./versions";
import { acquireOwnership, forgetUnreachableOwner, liveOwner, readLock, type LockInfo } from "./lock";
import type { PgliteHost } from "./pglite-host";
import { lockPathOf, pgliteDirFromEnv, redact } from "./location";

export { lockPathOf, pgliteDirFromEnv, redact } from "./location";

export type DatabaseKind = "pglite" | "postgresql";

/**
 * How this process reaches the database: "owner" opened the PGlite folder (and serves it to the
 * others), "client" reaches the owner's socket, "server" is a PostgreSQL server (DATABASE_URL).
 */
export type DatabaseRole = "owner" | "client" | "server";

/** The embedded owner's NOTIFY relay: between this process and every client of its socket. */
export interface NotificationHub {
  notify(channel: string, payload: string): void;
  listen(channel: string, listener: (payload: string) => void): Promise<() => void>;
}

/** Where live views' events travel: LISTEN/NOTIFY on a server URL, or the PGlite owner's relay. */
export interface EventSource {
  url?: string;
  hub?: NotificationHub;
}

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** The PGlite folder, or the server URL with its password removed. */
  location: string;
  /** Names of migrations applied while opening (empty when the schema was current). */
  applied: string[];
  factory: SqlMigrationAwareDriverAdapterFactory;
  readonly role: DatabaseRole;
  /**
   * A plain postgresql:// URL other processes and libraries (pg, pg-boss) connect to: the server's,
   * or the PGlite owner's socket (with its password: never print it; `location` is for people).
   */
  readonly url?: string;
  readonly events: EventSource;
  /** The process that owns the PGlite folder now (embedded only). */
  owner(): LockInfo | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A PostgreSQL URL; defaults to DATABASE_URL. When absent, embedded PGlite is used. */
  url?: string;
  /** The PGlite folder; defaults to <data dir>/db. */
  pgliteDir?: string;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Shown to other processes (lock file, `colbench doctor`). */
  command?: string;
  /**
   * A client takes the folder over when its owner exits (default true), serving at the same
   * address, so long-lived clients (a studio opened after a `colbench run`) keep working.
   */
  takeOver?: boolean;
}

export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  const url = options.url ?? process.env.DATABASE_URL;
  if (url) return openPostgres(url, options);
  return openEmbedded(path.resolve(options.pgliteDir ?? pgliteDirFromEnv()), options);
}

async function withPrisma(
  factory: SqlMigrationAwareDriverAdapterFactory,
  options: OpenOptions,
  where = "the database",
): Promise<{ prisma: PrismaClient; applied: string[] }> {
  const prisma = new PrismaClient({ adapter: factory });
  try {
    const recorded = await recordedMigrations(prisma);
    refuseNewer(where, recorded);
    const applied = options.migrate === false ? [] : await applyMigrations(factory, recorded);
    return { prisma, applied };
  } catch (error) {
    await prisma.$disconnect().catch(() => {});
    throw error;
  }
}

/** Migrations the database lists as finished; none when it has never been migrated. */
async function recordedMigrations(prisma: PrismaClient): Promise<string[]> {
  try {
    const rows = await prisma.$queryRawUnsafe<Array<{ migration_name: string }>>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    return rows.map((row) => row.migration_name);
  } catch {
    return [];
  }
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const factory = new PrismaPg(
    { connectionString: url },
    namesStatements() ? { statementNameGenerator: statementNames() } : undefined,
  );
  const { prisma, applied } = await withPrisma(factory, options, `the PostgreSQL database ${redact(url)}`);
  return {
    prisma,
    applied,
    factory,
    kind: "postgresql",
    role: "server",
    location: redact(url),
    url,
    events: { url },
    owner: () => undefined,
    close: () => prisma.$disconnect(),
  };
}

/** PGlite opened by this process (in its own thread), served on 127.0.0.1 to every other one. */
interface Served {
  host: PgliteHost;
  url: string;
  release(): void;
}

/**
 * Opens the folder as its owner: PGlite, the session gate and the socket server in the database's
 * thread (at the previous owner's address when it is free, so that its clients reconnect), and
 * records the address.
 */
async function serveFolder(
  dir: string,
  previousUrl: string | undefined,
  update: (patch: Partial<LockInfo>) => void,
  release: () => void,
  strictPort: boolean,
): Promise<Served> {
  const { PgliteHost } = await import("./pglite-host");
  let host: PgliteHost | undefined;
  try {
    const previous = previousUrl ? new URL(previousUrl) : undefined;
    const password = previous?.password ? decodeURIComponent(previous.password) : randomBytes(18).toString("base64url");
    host = await PgliteHost.start({
      dataDir: dir,
      password,
      port: previous ? Number(previous.port) : 0,
      strictPort,
      statistics: statisticsTimes(),
    });
    const url = `postgresql://colbench:${encodeURIComponent(password)}@127.0.0.1:${host.address.port}/postgres`;
    update({ url });
    return { host, url, release };
  } catch (error) {
    await host?.close().catch(() => {});
    release();
    throw error;
  }
}

async function closeServed(served: Served): Promise<void> {
  try {
    await served.host.close();
  } finally {
    served.release();
  }
}

/** COLBENCH_DB_ANALYZE_AFTER_MS / _EVERY_MS: when the owner analyses the folder (tests set them low). */
function statisticsTimes(): { firstAfterMs?: number; everyMs?: number } {
  const read = (name: string) => {
    const text = process.env[name];
    const value = Number(text);
    return text && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return { firstAfterMs: read("COLBENCH_DB_ANALYZE_AFTER_MS"), everyMs: read("COLBENCH_DB_ANALYZE_EVERY_MS") };
}

async function reachable(url: string): Promise<boolean> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED" || code === "ECONNRESET") return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

async function openEmbedded(dir: string, options: OpenOptions): Promise<Database> {
  const lockPath = lockPathOf(dir);
  const command = options.command ?? process.argv.slice(1).join(" ");
  for (let attempt = 0; ; attempt++) {
    const ownership = await acquireOwnership(lockPath, command);
    if (ownership.role === "owner") return openAsOwner(dir, ownership, options);
    if (await reachable(ownership.holder.url!)) return openAsClient(dir, ownership.holder.url!, options);
    // The lock names a live pid whose socket refuses us: that pid is another program's now.
    if (attempt > 20)
      throw new Error(`the database owner recorded in ${lockPath} (process ${ownership.holder.pid}) does not answer`);
    await forgetUnreachableOwner(lockPath, ownership.holder);
  }
}

async function openAsOwner(
  dir: string,
  ownership: Extract<Awaited<ReturnType<typeof acquireOwnership>>, { role: "owner" }>,
  options: OpenOptions,
): Promise<Database> {
  const served = await serveFolder(dir, ownership.previous?.url, ownership.update, ownership.release, false);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  try {
    // The owner's own queries go to the database's thread and take turns with the socket's clients
    // through the same gate there. (The adapter's typings lag a minor version of
    // driver-adapter-utils behind; the shapes match.)
    const factory = new PrismaPGlite(served.host.pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
    const migrated = await withPrisma(factory, options, `the database folder ${dir}`);
    const { applied } = migrated;
    let prisma = migrated.prisma;
    if (ownerVia() === "socket") {
      await prisma.$disconnect();
      prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: served.url }) });
    }
    // Migrated: clients may come in.
    ownership.update({ state: "serving" });
    let closed = false;
    return {
      prisma,
      applied,
      factory,
      kind: "pglite",
      role: "owner",
      location: dir,
      url: served.url,
      events: { hub: served.host },
      owner: () => readLock(lockPathOf(dir)),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await prisma.$disconnect();
        } finally {
          await closeServed(served);
        }
      },
    };
  } catch (error) {
    await closeServed(served);
    throw error;
  }
}

/** COLBENCH_DB_OWNER_VIA: how the owner's own Prisma client reaches the database's thread (bench/embedded-clients.ts, bench/labelling.ts compare them). */
function ownerVia(): "port" | "socket" {
  return process.env.COLBENCH_DB_OWNER_VIA === "socket" ? "socket" : "port";
}

async function openAsClient(dir: string, url: string, options: OpenOptions): Promise<Database> {
  const lockPath = lockPathOf(dir);
  const factory = new PrismaPg({ connectionString: url });
  const { prisma, applied } = await withPrisma(factory, options, `the database folder ${dir}`);
  let served: Served | null = null;
  let closed = false;
  let checking = false;
  // When the owner exits, this process takes the folder and serves it at the same address: its own
  // pool and every other client's reconnect to it. Statements in flight at that moment fail, as
  // they would when a PostgreSQL server restarts.
  const watch = setInterval(() => {
    if (options.takeOver === false || closed || served || checking || liveOwner(lockPath)) return;
    checking = true;
    void (async () => {
      const ownership = await acquireOwnership(lockPath, options.command ?? process.argv.slice(1).join(" "), 60_000);
      if (ownership.role !== "owner") return;
      if (closed || ownership.previous?.url !== url) return ownership.release();
      served = await serveFolder(dir, url, ownership.update, ownership.release, true);
      ownership.update({ state: "serving" });
      clearInterval(watch);
      const was = ownership.previous;
      process.stderr.write(
        `colbench: took over the database folder ${dir} from process ${was?.pid} (${was?.command}), which ended; serving it at the same address\n`,
      );
    })()
      .catch((error) =>
        process.stderr.write(`colbench: could not take over the database folder ${dir}: ${(error as Error).message}\n`),
      )
      .finally(() => (checking = false));
  }, 1000);
  watch.unref();
  return {
    prisma,
    applied,
    factory,
    kind: "pglite",
    get role() {
      return served ? "owner" : "client";
    },
    location: dir,
    url,
    events: { url },
    owner: () => readLock(lockPath),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(watch);
      while (checking) await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        await prisma.$disconnect();
      } finally {
        if (served) await closeServed(served);
      }
    },
  } satisfies Database;
}
