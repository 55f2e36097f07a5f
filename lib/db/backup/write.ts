import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { once } from "node:events";
import { schemaColumns, schemaSequences } from "./catalog";
import { to as copyTo } from "pg-copy-streams";
import { openSnapshot, type SnapshotSource } from "./snapshot-source";
import { copyToLines } from "./copy-text";
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
  const { default: pg } = await import("pg");
  const batch = options.batch ?? 500;
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const gzip = zlib.createGzip({ level: 6 });
  const out = fs.createWriteStream(partial, { fd: createPartial(partial) });
  gzip.pipe(out);
  // Compressed on libuv's threads (zlib streams), never on this one.
  const writeText = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, "drain");
  };
  const write = (value: unknown) => writeText(JSON.stringify(value) + "\n");
  let snapshot: SnapshotSource | null = null;
  let client: InstanceType<typeof pg.Client> | undefined;
  // Every column is read as text, so no value is reinterpreted on the way (timestamps, bigints, json).
  const rows: Record<string, number> = {};
  let files = 0;
  let header: BackupHeader;
  try {
    if (source.kind === "pglite" && readsSnapshot(options)) snapshot = await openSnapshot(source.url);
    client = new pg.Client({ connectionString: snapshot?.url ?? source.url, application_name: "colbench backup" });
    await client.connect();
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // The snapshot is taken by the transaction's first statement: this one.
    const now = await client.query<{ now: Date; version: string }>(
      "SELECT clock_timestamp() AS now, current_setting('server_version') AS version",
    );
    const takenAt = snapshot?.takenAt ?? now.rows[0]!.now.toISOString();
    const migrations = await client
      .query<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
      .then((r) => r.rows.map((row) => row.migration_name));
    header = {
      format: FORMAT,
      version: VERSION,
      takenAt,
      source: { kind: source.kind, location: source.location, serverVersion: now.rows[0]!.version },
      migrations,
    };
    await write(header);
    const tables = await schemaColumns(client);
    const references = (await client.query<{ table: string; references: string }>(REFERENCES_SQL)).rows;
    for (const table of referencedFirst([...tables.keys()], references)) {
      const columns = tables.get(table)!;
      await write({ table, columns } satisfies TableLine);
      const select = `SELECT ${columns.map(([name]) => `${quoteIdent(name)}::text`).join(", ")} FROM ${quoteIdent(table)}`;
      if (source.kind === "postgresql") {
        // COPY streams the rows as the server reads them. PGlite's socket answers a statement whole,
        // so there a cursor's batches keep the memory small.
        rows[table] = await copyToLines(client.query(copyTo(`COPY (${select}) TO STDOUT`)), writeText);
        continue;
      }
      await client.query(`DECLARE colbench_backup NO SCROLL CURSOR FOR ${select}`);
      let count = 0;
      for (;;) {
        const got = await client.query<Array<string | null>>({
          text: `FETCH ${batch} FROM colbench_backup`,
          rowMode: "array",
        });
        await writeText(got.rows.map((row) => JSON.stringify(row) + "\n").join(""));
        count += got.rows.length;
        if (got.rows.length < batch) break;
      }
      await client.query("CLOSE colbench_backup");
      rows[table] = count;
    }
    for (const sequence of await schemaSequences(client)) {
      const value = await client.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text, is_called FROM ${quoteIdent(sequence)}`,
      );
      await write({ sequence, value: value.rows[0]!.last_value, called: value.rows[0]!.is_called });
    }
    await client.query("COMMIT");
  } catch (error) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    await client?.end().catch(() => {});
    await snapshot?.close();
  }
  try {
    // Renders are content-addressed files written once: copying them after the snapshot is safe.
    if (options.renders && fs.existsSync(/*turbopackIgnore: true*/ options.renders)) {
      for (const relative of listFiles(options.renders)) {
        let data: Buffer;
        try {
          data = fs.readFileSync(path.join(/*turbopackIgnore: true*/ options.renders, relative));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // evicted meanwhile
          throw error;
        }
        await write({
          file: path.posix.join("renders", relative.split(path.sep).join("/")),
          data: data.toString("base64"),
        });
        files++;
      }
    }
    await write({ end: true, rows, files } satisfies EndLine);
    gzip.end();
    await once(out, "close");
    const handle = fs.openSync(partial, "r");
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    fs.renameSync(partial, target);
  } catch (error) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return {
    file: target,
    takenAt: header.takenAt,
    finishedAt: new Date().toISOString(),
    bytes: fs.statSync(target).size,
    rows,
    files,
    migrations: header.migrations,
  };
}

function readsSnapshot(options: BackupOptions): boolean {
  return options.snapshot ?? process.env.COLBENCH_BACKUP_SNAPSHOT !== "off";
}

/**
 * Opens FILE.partial as a new file of this process alone: created exclusively, never through a link,
 * readable by its owner only. A regular file left there by a backup that was killed is replaced; a
 * link or anything else is refused, since writing through it would overwrite what it points at.
 */
function createPartial(partial: string): number {
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
  try {
    return fs.openSync(partial, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const found = fs.lstatSync(partial);
  if (!found.isFile()) {
    throw new Error(
      `${partial} exists and is ${found.isSymbolicLink() ? "a symbolic link" : "not a regular file"}: refusing to write the backup through it (remove it, or choose another file name)`,
    );
  }
  fs.unlinkSync(partial);
  return fs.openSync(partial, flags, 0o600);
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
