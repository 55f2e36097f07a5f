import fs from "node:fs";
import path from "node:path";
import type { ClientBase } from "pg";
import { schemaColumns, schemaSequences } from "./catalog";
import { to as copyTo } from "pg-copy-streams";
import { openSnapshot, type SnapshotSource } from "./snapshot-source";
import { copyToLines } from "./copy-text";
import { openPartialFile, type PartialFile } from "./partial-file";
import { FORMAT, VERSION, quoteIdent, type BackupHeader, type EndLine, type TableLine } from "./format";

export interface BackupSource {
  /** A postgresql:// URL: a PostgreSQL server, or the embedded database owner's socket. */
  url: string;
  kind: string;
  /** Shown in the header: a folder, or the URL without its password. */
  location: string;
}

export interface BackupOptions {
  /** The render cache folder to include (--with-renders). */
  renders?: string;
  /** Rows fetched per round trip. */
  batch?: number;
  /**
   * On the embedded database, read a copy of the folder the owner makes (the default; false, or
   * COLBENCH_BACKUP_SNAPSHOT=off: read the owner's session, holding it for the backup's length).
   */
  snapshot?: boolean;
}

export interface BackupResult {
  file: string;
  takenAt: string;
  finishedAt: string;
  bytes: number;
  rows: Record<string, number>;
  files: number;
  migrations: string[];
}

/** Foreign keys between the schema's tables: a restore writes referenced tables first. */
const REFERENCES_SQL = `
SELECT c.relname AS "table", r.relname AS "references"
  FROM pg_constraint k
  JOIN pg_class c ON c.oid = k.conrelid
  JOIN pg_class r ON r.oid = k.confrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.oid <> r.oid`;

/**
 * Writes a consistent snapshot of the database to FILE: every table read in one REPEATABLE READ,
 * READ ONLY transaction, so rows committed while it runs are either all in (committed before the
 * snapshot) or all out. On PostgreSQL nothing waits for it. On the embedded database the URL is
 * the owner's socket: the owner copies its folder while holding its session for the copy alone and
 * the rows are read from the copy (./snapshot-source.ts), so nobody waits for the read. An owner that
 * makes no copy (older, or in memory) gives the transaction the whole session until it ends: writers
 * then wait for the backup (they are not refused). The folder is never read behind the owner's back.
 * The file appears under its name only when complete (written as FILE.partial, then renamed).
 */
export async function writeBackup(
  source: BackupSource,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = openPartialFile(`${target}.partial`);
  let read: DatabaseRead;
  let files: number;
  try {
    read = await writeDatabase(source, options, out);
  } catch (error) {
    out.discard();
    throw error;
  }
  try {
    files = await writeRenders(options.renders, out);
    await out.write({ end: true, rows: read.rows, files } satisfies EndLine);
    await out.complete(target);
  } catch (error) {
    out.discard();
    throw error;
  }
  return {
    file: target,
    takenAt: read.header.takenAt,
    finishedAt: new Date().toISOString(),
    bytes: fs.statSync(target).size,
    rows: read.rows,
    files,
    migrations: read.header.migrations,
  };
}

interface DatabaseRead {
  header: BackupHeader;
  /** Rows written, by table. */
  rows: Record<string, number>;
}

/**
 * The header, every table and every sequence, read in one REPEATABLE READ, READ ONLY transaction: on
 * the embedded database from the owner's copy of its folder when it makes one, else from its session.
 */
async function writeDatabase(source: BackupSource, options: BackupOptions, out: PartialFile): Promise<DatabaseRead> {
  const { default: pg } = await import("pg");
  let snapshot: SnapshotSource | null = null;
  let client: InstanceType<typeof pg.Client> | undefined;
  try {
    if (source.kind === "pglite" && readsSnapshot(options)) snapshot = await openSnapshot(source.url);
    client = new pg.Client({ connectionString: snapshot?.url ?? source.url, application_name: "colbench backup" });
    await client.connect();
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const header = await readHeader(client, source, snapshot?.takenAt);
    await out.write(header);
    const rows = await writeTables(client, source.kind, options.batch ?? 500, out);
    await writeSequences(client, out);
    await client.query("COMMIT");
    return { header, rows };
  } finally {
    await client?.end().catch(() => {});
    await snapshot?.close();
  }
}

/** The file's first line: when the snapshot was taken, of what, and the migrations it holds. */
async function readHeader(client: ClientBase, source: BackupSource, copiedAt?: string): Promise<BackupHeader> {
  // The snapshot is taken by the transaction's first statement: this one.
  const now = await client.query<{ now: Date; version: string }>(
    "SELECT clock_timestamp() AS now, current_setting('server_version') AS version",
  );
  const migrations = await client
    .query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    )
    .then((r) => r.rows.map((row) => row.migration_name));
  return {
    format: FORMAT,
    version: VERSION,
    takenAt: copiedAt ?? now.rows[0]!.now.toISOString(),
    source: { kind: source.kind, location: source.location, serverVersion: now.rows[0]!.version },
    migrations,
  };
}

/** Each table's line and its rows, referenced tables first; returns the rows written by table. */
async function writeTables(
  client: ClientBase,
  kind: string,
  batch: number,
  out: PartialFile,
): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  const tables = await schemaColumns(client);
  const references = (await client.query<{ table: string; references: string }>(REFERENCES_SQL)).rows;
  for (const table of referencedFirst([...tables.keys()], references)) {
    const columns = tables.get(table)!;
    await out.write({ table, columns } satisfies TableLine);
    // Every column is read as text, so no value is reinterpreted on the way (timestamps, bigints, json).
    const select = `SELECT ${columns.map(([name]) => `${quoteIdent(name)}::text`).join(", ")} FROM ${quoteIdent(table)}`;
    // COPY streams the rows as the server reads them. PGlite's socket answers a statement whole,
    // so there a cursor's batches keep the memory small.
    rows[table] =
      kind === "postgresql"
        ? await copyToLines(client.query(copyTo(`COPY (${select}) TO STDOUT`)), out.writeText)
        : await writeInBatches(client, select, batch, out);
  }
  return rows;
}

/** A table's rows through a cursor, BATCH at a time; returns how many. */
async function writeInBatches(client: ClientBase, select: string, batch: number, out: PartialFile): Promise<number> {
  await client.query(`DECLARE colbench_backup NO SCROLL CURSOR FOR ${select}`);
  let count = 0;
  for (;;) {
    const got = await client.query<Array<string | null>>({
      text: `FETCH ${batch} FROM colbench_backup`,
      rowMode: "array",
    });
    await out.writeText(got.rows.map((row) => JSON.stringify(row) + "\n").join(""));
    count += got.rows.length;
    if (got.rows.length < batch) break;
  }
  await client.query("CLOSE colbench_backup");
  return count;
}

/** Each sequence's position, so a restore hands out the ids the database would have next. */
async function writeSequences(client: ClientBase, out: PartialFile): Promise<void> {
  for (const sequence of await schemaSequences(client)) {
    const value = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text, is_called FROM ${quoteIdent(sequence)}`,
    );
    await out.write({ sequence, value: value.rows[0]!.last_value, called: value.rows[0]!.is_called });
  }
}

/**
 * The render cache folder's files (--with-renders), as base64 lines; returns how many. Renders are
 * content-addressed files written once: copying them after the snapshot is safe.
 */
async function writeRenders(renders: string | undefined, out: PartialFile): Promise<number> {
  if (!renders || !fs.existsSync(/*turbopackIgnore: true*/ renders)) return 0;
  let files = 0;
  for (const relative of listFiles(renders)) {
    let data: Buffer;
    try {
      data = fs.readFileSync(path.join(/*turbopackIgnore: true*/ renders, relative));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // evicted meanwhile
      throw error;
    }
    await out.write({
      file: path.posix.join("renders", relative.split(path.sep).join("/")),
      data: data.toString("base64"),
    });
    files++;
  }
  return files;
}

function readsSnapshot(options: BackupOptions): boolean {
  return options.snapshot ?? process.env.COLBENCH_BACKUP_SNAPSHOT !== "off";
}

function listFiles(root: string, under = ""): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(/*turbopackIgnore: true*/ root, under), { withFileTypes: true })) {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) found.push(...listFiles(root, relative));
    // A render being written has a temporary name (ID.png.PID.RANDOM.png) until it is renamed.
    else if (entry.isFile() && !/\.png\.\d+\.\w+\.(png|json)$/.test(entry.name)) found.push(relative);
  }
  return found.sort();
}

/**
 * Tables ordered so that each comes after the tables it references (a restore keeps foreign keys
 * checked, which needs no superuser). A cycle, which the schema does not have, keeps file order.
 */
export function referencedFirst(tables: string[], references: Array<{ table: string; references: string }>): string[] {
  const ordered: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (table: string) => {
    if (state.get(table)) return;
    state.set(table, "visiting");
    for (const edge of references) if (edge.table === table && tables.includes(edge.references)) visit(edge.references);
    state.set(table, "done");
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered;
}
