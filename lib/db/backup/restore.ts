import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { openDatabase } from "../open";
import { applyMigrations } from "../migrate";
import { liveOwner } from "../lock";
import { lockPathOf, redact } from "../location";
import { refuseNewer } from "../versions";
import { quoteIdent, type BackupHeader, type EndLine } from "./format";
import { BackupFileError, readBackup, renderPathOf } from "./read";
import type { LineLimits } from "./lines";
import { schemaColumns, schemaSequences } from "./catalog";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import { toCopyLine } from "./copy-text";

export type RestoreTarget = { folder: string } | { url: string };

export interface RestoreOptions {
  /** Replace what the target holds (refused otherwise). */
  force?: boolean;
  /** Where the backup's renders go (when it has any): a data folder's renders/ by default. */
  renders?: string;
  /** Rows per INSERT. */
  batch?: number;
  /** Bounds on the file's lines and size (tests lower them). */
  limits?: LineLimits;
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
 * Restores a backup into an embedded database folder or a PostgreSQL database. The file is data and
 * never SQL: every line is checked as it is read (shape, bounds, render paths; the header, which names
 * the schema, before anything is done; the end line's counts before anything is replaced), the schema is built
 * from the studio's own migrations at the backup's version, each table's column types must be the
 * ones those migrations made (the catalog's types are what the rows are cast to), and values travel
 * as bound parameters. Everything lands beside the target — a scratch folder, or a scratch schema of
 * the same database — and replaces it only once loaded, upgraded and counted, so a refused or failed
 * restore leaves the target as it was. A target that holds data is refused unless `force`.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new RestoreRefused(`${file}: no such file`);
  const header = await readHeader(file, options.limits);
  refuseNewer(`the backup ${file}`, header.migrations);
  if ("folder" in target) return restoreIntoFolder(file, path.resolve(target.folder), header, options);
  return restoreIntoServer(file, target.url, header, options);
}

function holdsFiles(dir: string): boolean {
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}

async function restoreIntoFolder(
  file: string,
  folder: string,
  header: BackupHeader,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const dbDir = path.join(folder, "db");
  const owner = liveOwner(lockPathOf(dbDir));
  if (owner)
    throw new RestoreRefused(
      `${dbDir} is open in process ${owner.pid} (${owner.command}): stop it before restoring into its folder`,
    );
  if (holdsFiles(dbDir) && !options.force)
    throw new RestoreRefused(
      `${dbDir} already holds a database: restore into a new folder, or add --force to replace it`,
    );
  const scratch = path.join(folder, `db.restoring-${process.pid}`);
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(lockPathOf(scratch), { force: true });
  fs.mkdirSync(folder, { recursive: true });
  const renders = stagedRenders(options.renders ?? path.join(folder, "renders"));
  try {
    const db = await openDatabase({
      pgliteDir: scratch,
      url: "",
      migrate: false,
      takeOver: false,
      command: "colbench db restore",
    });
    let result: RestoreResult;
    try {
      result = await load({ url: db.url!, schema: null, factory: db.factory, copy: false }, file, header, options);
    } finally {
      await db.close();
    }
    // A file without renders is not read a third time for them.
    result.files = result.files ? await renders.write(file, options.limits) : 0;
    fs.rmSync(dbDir, { recursive: true, force: true });
    fs.renameSync(scratch, dbDir);
    // The next owner serves at a fresh address: the scratch folder's lock is not this folder's.
    fs.rmSync(lockPathOf(dbDir), { force: true });
    renders.publish();
    return { ...result, location: dbDir };
  } finally {
    renders.discard();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(lockPathOf(scratch), { force: true });
    fs.rmSync(`${lockPathOf(scratch)}.take`, { force: true });
  }
}

/** The URL with the session's search_path set to `schema` (added to any options it already has). */
function inSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get("options");
  parsed.searchParams.set("options", `${options ? `${options} ` : ""}-c search_path=${schema}`);
  return parsed.toString();
}

async function restoreIntoServer(
  file: string,
  url: string,
  header: BackupHeader,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { default: pg } = await import("pg");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const client = new pg.Client({ connectionString: url, application_name: "colbench restore" });
  await client.connect();
  const scratch = `colbench_restoring_${process.pid}_${randomBytes(4).toString("hex")}`;
  const renders = options.renders ? stagedRenders(options.renders) : null;
  let created = false;
  try {
    const schema = (await client.query<{ s: string | null }>("SELECT current_schema() AS s")).rows[0]!.s;
    if (!schema)
      throw new RestoreRefused(
        `${redact(url)}: the connection's search_path names no schema that exists: create it, or restore into another database`,
      );
    const tables = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`,
    );
    if (tables.rows.length && !options.force) {
      throw new RestoreRefused(
        `${redact(url)} already has ${tables.rows.length} table(s) (${tables.rows
          .slice(0, 5)
          .map((r) => r.name)
          .join(", ")}…): restore into an empty database, or add --force to replace them`,
      );
    }
    await client.query(`CREATE SCHEMA ${quoteIdent(scratch)}`);
    created = true;
    const scratchUrl = inSchema(url, scratch);
    const result = await load(
      {
        url: scratchUrl,
        schema: scratch,
        factory: new PrismaPg({ connectionString: scratchUrl }, { schema: scratch }),
        copy: true,
      },
      file,
      header,
      options,
    );
    const files = result.files ? await (renders ?? stagedRenders(undefined)).write(file, options.limits) : 0;
    if (files && !renders)
      process.stderr.write(
        `colbench: the backup holds ${files} render file(s), not restored: give --renders DIR to restore them\n`,
      );
    result.files = renders ? files : 0;
    // The swap: one transaction, so other sessions see the old schema or the whole new one.
    await client.query("BEGIN");
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
      await client.query(`ALTER SCHEMA ${quoteIdent(scratch)} RENAME TO ${quoteIdent(schema)}`);
      await client.query("COMMIT");
      created = false;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
    renders?.publish();
    return { ...result, location: redact(url) };
  } finally {
    renders?.discard();
    if (created) await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(scratch)} CASCADE`).catch(() => {});
    await client.end().catch(() => {});
  }
}

interface LoadTarget {
  /** A URL whose sessions work in the schema to load. */
  url: string;
  /** That schema (null: the URL's own, a scratch database's public). */
  schema: string | null;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Load the rows with COPY (a PostgreSQL server), not INSERTs (PGlite). */
  copy: boolean;
}

/** The schema at the backup's migrations, its rows in one transaction, then today's migrations, then a count. */
async function load(
  target: LoadTarget,
  file: string,
  header: BackupHeader,
  options: RestoreOptions,
): Promise<RestoreResult> {
  await applyMigrations(target.factory, [], header.migrations);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: target.url, application_name: "colbench restore" });
  await client.connect();
  const rows: Record<string, number> = {};
  let end: EndLine;
  try {
    if (target.schema) await client.query(`SET search_path TO ${quoteIdent(target.schema)}`);
    await client.query("BEGIN");
    end = await loadRows(client, file, options, rows, target.copy);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
  // A backup from an older studio is upgraded like any older database.
  const upgraded = await applyMigrations(target.factory, header.migrations);
  const counted: Record<string, number> = {};
  const check = new pg.Client({ connectionString: target.url });
  await check.connect();
  try {
    if (target.schema) await check.query(`SET search_path TO ${quoteIdent(target.schema)}`);
    for (const [table, expected] of Object.entries(rows)) {
      const got = Number(
        (await check.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(table)}`)).rows[0]!.n,
      );
      if (got !== expected) throw new Error(`restored ${table} holds ${got} rows where the backup has ${expected}`);
      counted[table] = got;
    }
  } finally {
    await check.end().catch(() => {});
  }
  // The end line's count of render files: the caller reads them only when there are some.
  return { header, rows: counted, files: end.files, upgraded, location: "" };
}

type PgClient = InstanceType<typeof import("pg").Client>;

/**
 * The file's tables, rows and sequences into the session's schema, inside the caller's transaction:
 * on PostgreSQL with COPY … FROM STDIN (`copy`), on PGlite, whose single session cannot take a COPY
 * from a client, with INSERTs of JSON batches.
 */
async function loadRows(
  client: PgClient,
  file: string,
  options: RestoreOptions,
  rows: Record<string, number>,
  copy: boolean,
): Promise<EndLine> {
  const schema = await schemaColumns(client);
  const sequences = new Set(await schemaSequences(client));
  let table: TableSink | null = null;
  let end: EndLine | null = null;
  const finishTable = async () => {
    if (!table) return;
    await table.finish();
    await client.query(`ALTER TABLE ${quoteIdent(table.name)} ENABLE TRIGGER USER`);
    table = null;
  };
  try {
    for await (const item of readBackup(file, options.limits)) {
      if (item.kind === "table") {
        await finishTable();
        const { table: name, columns } = item.line;
        const known = schema.get(name);
        if (!known)
          throw new RestoreRefused(
            `${file}, line ${item.number}: table ${name} is not in the studio's schema at this backup's migrations`,
          );
        refuseOtherColumns(`${file}, line ${item.number}`, name, columns, known);
        // Stored totals (the turn triggers' work) come from the backup as they were; the
        // triggers would count every turn again. Foreign keys stay checked.
        await client.query(`ALTER TABLE ${quoteIdent(name)} DISABLE TRIGGER USER`);
        table = copy
          ? copySink(client, file, name, known)
          : insertSink(client, file, name, known, options.batch ?? 500);
        rows[name] = 0;
      } else if (item.kind === "row") {
        await table!.add(item.number, item.values);
        rows[table!.name]!++;
      } else if (item.kind === "sequence") {
        await finishTable();
        if (!sequences.has(item.line.sequence))
          throw new RestoreRefused(
            `${file}, line ${item.number}: sequence ${item.line.sequence} is not in the studio's schema at this backup's migrations`,
          );
        await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
          quoteIdent(item.line.sequence),
          item.line.value,
          item.line.called,
        ]);
      } else if (item.kind === "end" || item.kind === "file") {
        await finishTable();
        if (item.kind === "end") end = item.line;
      }
    }
  } catch (error) {
    await table?.abort();
    throw error;
  }
  await finishTable();
  // readBackup refused a file without its end line; its counts must be the rows the file held.
  for (const [name, count] of Object.entries(end!.rows)) {
    if (rows[name] !== count)
      throw new BackupFileError(
        `${file}: table ${name} holds ${rows[name] ?? 0} rows where its end line says ${count}`,
      );
  }
  return end!;
}

/** The backup's header (its first line, checked), read before anything else is done. */
async function readHeader(file: string, limits?: LineLimits): Promise<BackupHeader> {
  for await (const item of readBackup(file, limits)) {
    if (item.kind === "header") return item.line;
    break;
  }
  throw new BackupFileError(`${file}: no header line`);
}

/** Where one table's rows go while the file is read. */
interface TableSink {
  name: string;
  add(line: number, values: Array<string | null>): Promise<void>;
  finish(): Promise<void>;
  /** Gives up what was sent (a COPY still open holds the connection until it is failed). */
  abort(): Promise<void>;
}

const refusedRows = (file: string, where: string, table: string, error: unknown) =>
  new RestoreRefused(
    `${file}, ${where} (rows of ${table}): ${(error as Error).message}; nothing was restored, the target is as it was`,
  );

/** INSERT … SELECT from a JSON array of rows, cast to the catalog's types, `batch` rows at a time. */
function insertSink(
  client: PgClient,
  file: string,
  name: string,
  known: Array<[string, string]>,
  batch: number,
): TableSink {
  // The catalog's own type names, equal to the file's by now: nothing of the file becomes SQL.
  const casts = known.map(([, type], i) => `(r->>${i})::${type}`).join(", ");
  const insert = `INSERT INTO ${quoteIdent(name)} (${known.map(([c]) => quoteIdent(c)).join(", ")}) SELECT ${casts} FROM json_array_elements($1::json) AS r`;
  let pending: Array<Array<string | null>> = [];
  let pendingChars = 0;
  const lines: [number, number] = [0, 0];
  const flush = async () => {
    if (!pending.length) return;
    try {
      await client.query(insert, [JSON.stringify(pending)]);
    } catch (error) {
      throw refusedRows(file, `lines ${lines[0]}-${lines[1]}`, name, error);
    }
    pending = [];
    pendingChars = 0;
  };
  return {
    name,
    async add(line, values) {
      if (!pending.length) lines[0] = line;
      lines[1] = line;
      pending.push(values);
      pendingChars += values.reduce((n, v) => n + (v?.length ?? 4), 0);
      if (pending.length >= batch || pendingChars > 8_000_000) await flush();
    },
    finish: flush,
    abort: async () => {},
  };
}

/**
 * COPY … FROM STDIN in PostgreSQL's text format: the server parses each column with its type's input
 * function, as the cast from text does. A refused row is named by its line in the file (PostgreSQL
 * names its line in the COPY).
 */
function copySink(client: PgClient, file: string, name: string, known: Array<[string, string]>): TableSink {
  const stream = client.query(
    copyFrom(`COPY ${quoteIdent(name)} (${known.map(([c]) => quoteIdent(c)).join(", ")}) FROM STDIN`),
  );
  let failed: unknown = null;
  stream.on("error", (error) => (failed ??= error));
  const lineOf: number[] = [];
  let piece = "";
  const refused = (error: unknown) => {
    const at = /line (\d+)/.exec((error as { where?: string }).where ?? "");
    const line = at ? lineOf[Number(at[1]) - 1] : undefined;
    return refusedRows(file, line ? `line ${line}` : `lines ${lineOf[0]}-${lineOf.at(-1)}`, name, error);
  };
  const send = async () => {
    const text = piece;
    piece = "";
    if (failed) throw refused(failed);
    if (!stream.write(text)) await Promise.race([once(stream, "drain"), once(stream, "error").catch(() => {})]);
    if (failed) throw refused(failed);
  };
  return {
    name,
    async add(line, values) {
      lineOf.push(line);
      piece += toCopyLine(values);
      if (piece.length >= 1 << 20) await send();
    },
    async finish() {
      if (piece) await send();
      stream.end();
      try {
        await finished(stream);
      } catch (error) {
        throw refused(failed ?? error);
      }
      if (failed) throw refused(failed);
    },
    async abort() {
      if (stream.writableFinished || stream.destroyed) return;
      // CopyFail: the server ends the COPY with an error, and the connection can roll back.
      stream.destroy(new Error("the restore stopped"));
      await finished(stream).catch(() => {});
    },
  };
}

/** The file's columns must be the schema's, name for name and type for type, in order. */
function refuseOtherColumns(
  where: string,
  table: string,
  columns: Array<[string, string]>,
  known: Array<[string, string]>,
): void {
  for (let i = 0; i < Math.max(columns.length, known.length); i++) {
    const [name, type] = columns[i] ?? [];
    const [knownName, knownType] = known[i] ?? [];
    if (name !== knownName) {
      throw new RestoreRefused(
        `${where}: table ${table}, column ${i + 1} is ${name ?? "missing"} where the studio's schema at this backup's migrations has ${knownName ?? "no column"}`,
      );
    }
    if (type !== knownType) {
      throw new RestoreRefused(
        `${where}: table ${table}, column ${name} has the type ${JSON.stringify(type)} where the studio's schema at this backup's migrations has ${JSON.stringify(knownType)}`,
      );
    }
  }
}

interface StagedRenders {
  /** Writes the backup's render files beside the render folder (counts them only when there is none); returns how many. */
  write(file: string, limits?: LineLimits): Promise<number>;
  /** Moves what was written into the render folder. */
  publish(): void;
  discard(): void;
}

/**
 * Render files are staged in a folder beside `dir` and moved in only after the database was replaced:
 * a restore that fails leaves the render folder as it was. Renders are content-addressed, so moving
 * one over a file of the same name changes nothing a score reads.
 */
function stagedRenders(dir: string | undefined): StagedRenders {
  const stage = dir ? `${dir.replace(/[\\/]+$/, "")}.restoring-${process.pid}` : null;
  const written: string[] = [];
  return {
    async write(file, limits) {
      let count = 0;
      if (stage) fs.rmSync(stage, { recursive: true, force: true });
      for await (const item of readBackup(file, limits)) {
        if (item.kind !== "file") continue;
        count++;
        if (!stage) continue;
        const relative = renderPathOf(item.line.file);
        if (relative === null)
          throw new BackupFileError(
            `${file}, line ${item.number}: a render file named outside the render folder: ${item.line.file}`,
          );
        const staged = path.join(stage, ...relative.split("/"));
        fs.mkdirSync(path.dirname(staged), { recursive: true });
        fs.writeFileSync(staged, Buffer.from(item.line.data, "base64"), { flag: "wx" });
        written.push(relative);
      }
      return count;
    },
    publish() {
      if (!stage || !dir) return;
      for (const relative of written) {
        const final = path.join(dir, ...relative.split("/"));
        fs.mkdirSync(path.dirname(final), { recursive: true });
        fs.renameSync(path.join(stage, ...relative.split("/")), final);
      }
    },
    discard() {
      if (stage) fs.rmSync(stage, { recursive: true, force: true });
    },
  };
}
