import fs from "node:fs";
import path from "node:path";
import { openDatabase, type Database } from "../open";
import { applyMigrations } from "../migrate";
import { liveOwner } from "../lock";
import { lockPathOf, redact } from "../location";
import { refuseNewer } from "../versions";
import { quoteIdent, type BackupHeader } from "./format";
import { BackupFileError, inspectBackup, readBackup } from "./read";

export type RestoreTarget = { folder: string } | { url: string };

export interface RestoreOptions {
  /** Replace what the target holds (refused otherwise). */
  force?: boolean;
  /** Where the backup's renders go (when it has any): a data folder's renders/ by default. */
  renders?: string;
  /** Rows per INSERT. */
  batch?: number;
}

export interface RestoreResult {
  header: BackupHeader;
  /** Rows per table, counted in the restored database. */
  rows: Record<string, number>;
  files: number;
  /** Migrations applied after loading (the backup was taken at an older schema). */
  upgraded: string[];
  location: string;
}

export class RestoreRefused extends Error {}

/**
 * Restores a backup into an embedded database folder or a PostgreSQL database: the schema as the
 * backup had it (its own migrations), the rows, the sequences, then the migrations it lacked. The
 * file is read whole first, so a damaged or cut-short one changes nothing. A folder is restored
 * beside its final name and renamed into place when complete; a target that holds data is refused
 * unless `force`.
 */
export async function restoreBackup(file: string, target: RestoreTarget, options: RestoreOptions = {}): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new RestoreRefused(`${file}: no such file`);
  const summary = await inspectBackup(file);
  refuseNewer(`the backup ${file}`, summary.header.migrations);
  if ("folder" in target) return restoreIntoFolder(file, path.resolve(target.folder), summary.header, options);
  return restoreIntoServer(file, target.url, summary.header, options);
}

function holdsFiles(dir: string): boolean {
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}

async function restoreIntoFolder(file: string, folder: string, header: BackupHeader, options: RestoreOptions): Promise<RestoreResult> {
  const dbDir = path.join(folder, "db");
  const owner = liveOwner(lockPathOf(dbDir));
  if (owner) throw new RestoreRefused(`${dbDir} is open in process ${owner.pid} (${owner.command}): stop it before restoring into its folder`);
  if (holdsFiles(dbDir) && !options.force) throw new RestoreRefused(`${dbDir} already holds a database: restore into a new folder, or add --force to replace it`);
  const scratch = path.join(folder, `db.restoring-${process.pid}`);
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(lockPathOf(scratch), { force: true });
  fs.mkdirSync(folder, { recursive: true });
  let result: RestoreResult;
  try {
    const db = await openDatabase({ pgliteDir: scratch, url: "", migrate: false, takeOver: false, command: "colbench db restore" });
    try {
      result = await load(db, file, header, options.batch);
    } finally {
      await db.close();
    }
    result.files = await restoreRenders(file, options.renders ?? path.join(folder, "renders"));
    fs.rmSync(dbDir, { recursive: true, force: true });
    fs.renameSync(scratch, dbDir);
    // The next owner serves at a fresh address: the scratch folder's lock is not this folder's.
    fs.rmSync(lockPathOf(dbDir), { force: true });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(lockPathOf(scratch), { force: true });
    fs.rmSync(`${lockPathOf(scratch)}.take`, { force: true });
  }
  return { ...result, location: dbDir };
}

async function restoreIntoServer(file: string, url: string, header: BackupHeader, options: RestoreOptions): Promise<RestoreResult> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`);
    if (tables.rows.length && !options.force) {
      throw new RestoreRefused(`${redact(url)} already has ${tables.rows.length} table(s) (${tables.rows.slice(0, 5).map((r) => r.name).join(", ")}…): restore into an empty database, or add --force to drop them first`);
    }
    if (tables.rows.length) {
      const schema = (await client.query<{ s: string }>("SELECT current_schema() AS s")).rows[0]!.s;
      await client.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE; CREATE SCHEMA ${quoteIdent(schema)}`);
    }
  } finally {
    await client.end();
  }
  const db = await openDatabase({ url, migrate: false });
  let result: RestoreResult;
  try {
    result = await load(db, file, header, options.batch);
  } finally {
    await db.close();
  }
  const files = await restoreRenders(file, options.renders);
  if (files && !options.renders) process.stderr.write(`colbench: the backup holds ${files} render file(s), not restored: give --renders DIR to restore them\n`);
  result.files = options.renders ? files : 0;
  return { ...result, location: redact(url) };
}

/** The schema at the backup's migrations, its rows in one transaction, then today's migrations. */
async function load(db: Database, file: string, header: BackupHeader, batch = 500): Promise<RestoreResult> {
  await applyMigrations(db.factory, [], header.migrations);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: db.url, application_name: "colbench restore" });
  await client.connect();
  const rows: Record<string, number> = {};
  try {
    await client.query("BEGIN");
    let table: { name: string; columns: Array<[string, string]>; insert: string } | null = null;
    let pending: Array<Array<string | null>> = [];
    let pendingChars = 0;
    const flush = async () => {
      if (!table || !pending.length) return;
      await client.query(table.insert, [JSON.stringify(pending)]);
      pending = [];
      pendingChars = 0;
    };
    const finishTable = async () => {
      await flush();
      if (table) await client.query(`ALTER TABLE ${quoteIdent(table.name)} ENABLE TRIGGER USER`);
      table = null;
    };
    for await (const item of readBackup(file)) {
      if (item.kind === "table") {
        await finishTable();
        const { table: name, columns } = item.line;
        const casts = columns.map(([, type], i) => `(r->>${i})::${type}`).join(", ");
        table = { name, columns, insert: `INSERT INTO ${quoteIdent(name)} (${columns.map(([c]) => quoteIdent(c)).join(", ")}) SELECT ${casts} FROM json_array_elements($1::json) AS r` };
        // Stored totals (the turn triggers' work) come from the backup as they were; the
        // triggers would count every turn again. Foreign keys stay checked.
        await client.query(`ALTER TABLE ${quoteIdent(name)} DISABLE TRIGGER USER`);
        rows[name] = 0;
      } else if (item.kind === "row") {
        if (item.values.length !== table!.columns.length) throw new BackupFileError(`${file}: a row of ${table!.name} has ${item.values.length} values for ${table!.columns.length} columns`);
        pending.push(item.values);
        rows[table!.name]!++;
        pendingChars += item.values.reduce((n, v) => n + (v?.length ?? 4), 0);
        if (pending.length >= batch || pendingChars > 8_000_000) await flush();
      } else if (item.kind === "sequence") {
        await finishTable();
        await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [quoteIdent(item.line.sequence), item.line.value, item.line.called]);
      } else if (item.kind === "end" || item.kind === "file") {
        await finishTable();
      }
    }
    await finishTable();
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
  // A backup from an older studio is upgraded like any older database.
  const upgraded = await applyMigrations(db.factory, header.migrations);
  const counted: Record<string, number> = {};
  const check = new pg.Client({ connectionString: db.url });
  await check.connect();
  try {
    for (const [table, expected] of Object.entries(rows)) {
      const got = Number((await check.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(table)}`)).rows[0]!.n);
      if (got !== expected) throw new Error(`restored ${table} holds ${got} rows where the backup has ${expected}`);
      counted[table] = got;
    }
  } finally {
    await check.end().catch(() => {});
  }
  return { header, rows: counted, files: 0, upgraded, location: "" };
}

/** Writes the backup's render files under `dir` (counts them only when there is none); returns how many. */
async function restoreRenders(file: string, dir: string | undefined): Promise<number> {
  let count = 0;
  for await (const item of readBackup(file)) {
    if (item.kind !== "file") continue;
    count++;
    if (!dir) continue;
    const relative = path.posix.normalize(item.line.file).replace(/^renders\//, "");
    if (relative.startsWith("..") || path.posix.isAbsolute(relative)) throw new BackupFileError(`${file}: a render file named outside the render folder: ${item.line.file}`);
    const target = path.join(dir, ...relative.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(item.line.data, "base64"));
  }
  return count;
}
