import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../testing/postgres-server";
import { openDatabase } from "../open";
import { storeFor } from "../../store";
import { backupDatabase, restoreBackup, BackupFileError, RestoreRefused } from ".";
import { tableContents } from "./testing/contents";

// A backup file is untrusted input: what it holds is data and never SQL, and a restore that is refused
// or fails — before loading, mid-load, or on its renders — leaves a populated target row for row as it
// was, on PostgreSQL (where --force used to drop the schema before loading) and in a data folder.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-restore-hostile-"));
const pwned = path.join(dir, "pwned.txt");
let postgres: PostgresServer;
let base: string;
let lines: string[];
let serverUrl: string;
const folder = path.join(dir, "target-folder");
let before: Record<string, string[]>;

beforeAll(async () => {
  // The server writes files as its own user: let it write into the scratch folder, as an attacker's would.
  fs.chmodSync(dir, 0o777);
  // The server and the source folder are independent: both start at once.
  const server = startPostgres().then((started) => (postgres = started));
  const source = await openDatabase({ pgliteDir: path.join(dir, "source-db"), url: "" });
  try {
    await storeFor(source.prisma).tasks.seedSamplesIfEmpty();
    base = path.join(dir, "base.backup.gz");
    await backupDatabase(source, base);
    before = await tableContents(source.url!);
  } finally {
    await source.close();
  }
  lines = zlib.gunzipSync(fs.readFileSync(base)).toString("utf8").split("\n").filter(Boolean);
  serverUrl = await (await server).createDatabase("populated");
  await Promise.all([restoreBackup(base, { url: serverUrl }), restoreBackup(base, { folder })]);
  expect(await tableContents(serverUrl)).toEqual(before);
}, 180_000);

afterAll(async () => {
  await postgres?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the base backup with `edit` applied to its lines. */
function variant(name: string, edit: (lines: string[]) => string[]): string {
  const file = path.join(dir, `${name}.backup.gz`);
  fs.writeFileSync(file, zlib.gzipSync(edit([...lines]).join("\n") + "\n"));
  return file;
}

/** The base file with one column's type in the Task table replaced. */
function withTaskType(name: string, column: string, type: string | ((type: string) => string)): string {
  return variant(name, (all) =>
    all.map((line) => {
      const value = JSON.parse(line) as { table?: string; columns?: Array<[string, string]> };
      if (value.table !== "Task") return line;
      value.columns = value.columns!.map(([c, t]) => [
        c,
        c === column ? (typeof type === "string" ? type : type(t)) : t,
      ]);
      return JSON.stringify(value);
    }),
  );
}

const taskLine = () => lines.findIndex((line) => line.startsWith('{"table":"Task"'));

async function refusedBoth(
  file: string,
  message: RegExp,
  kind: new (message?: string) => Error = Error,
): Promise<void> {
  // The two targets share nothing (a server's database, a folder's PGlite): both restores run at once.
  const targets = [{ url: serverUrl }, { folder }];
  const errors = await Promise.all(
    targets.map((target) =>
      restoreBackup(file, target, { force: true }).then(
        () => null,
        (thrown: unknown) => thrown,
      ),
    ),
  );
  targets.forEach((target, i) => {
    expect(
      errors[i],
      `restoring ${path.basename(file)} into ${"url" in target ? "PostgreSQL" : "a folder"}`,
    ).toBeInstanceOf(kind);
    expect((errors[i] as Error).message).toMatch(message);
  });
}

describe("a restore treats the file as data", () => {
  it("refuses column types that carry SQL before anything runs, on PostgreSQL and PGlite", async () => {
    const payloads = {
      lo: `text || CASE WHEN (r->>0)='1' THEN lo_export(424242,'${pwned}')::text ELSE '' END`,
      file: "text || pg_read_file('/etc/hostname')",
      setting: "text || current_setting('data_directory')",
    };
    // The large object the export would write, planted by another column of the same file.
    const planted = withTaskType("lo-planted", "groundTruth", "text || lo_from_bytea(424242, 'pwned')::text");
    await refusedBoth(
      planted,
      /table Task, column groundTruth: the type .* is not a column type a studio writes/,
      BackupFileError,
    );
    for (const [name, payload] of Object.entries(payloads)) {
      const file = withTaskType(`crafted-${name}`, "problemDescription", payload);
      await refusedBoth(
        file,
        /table Task, column problemDescription: the type .* is not a column type a studio writes/,
        BackupFileError,
      );
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });

  it("refuses a well-formed type that is not the schema's, naming table and column", async () => {
    const file = withTaskType("other-type", "sourceIndex", "bigint");
    await refusedBoth(
      file,
      /table Task, column sourceIndex has the type "bigint" where the studio's schema at this backup's migrations has "integer"/,
      RestoreRefused,
    );
    const renamed = variant("other-column", (all) =>
      all.map((line, i) => (i === taskLine() ? line.replace('"sourceIndex"', '"sourceIndexx"') : line)),
    );
    await refusedBoth(
      renamed,
      /table Task, column \d+ is sourceIndexx where the studio's schema at this backup's migrations has sourceIndex/,
      RestoreRefused,
    );
  });

  it("leaves a populated target as it was when the file fails mid-load, on its renders, or is cut short", async () => {
    const at = taskLine();
    const columns = (JSON.parse(lines[at]!) as { columns: Array<[string, string]> }).columns.map(([c]) => c);
    const badCast = variant("bad-cast", (all) => {
      const row = JSON.parse(all[at + 3]!) as string[];
      row[columns.indexOf("sourceIndex")] = "not-a-number";
      all[at + 3] = JSON.stringify(row);
      return all;
    });
    await refusedBoth(
      badCast,
      /lines? \d+(-\d+)? \(rows of Task\): invalid input syntax for type integer: "not-a-number"; nothing was restored, the target is as it was/,
      RestoreRefused,
    );
    const badRender = variant("bad-render", (all) => [
      ...all.slice(0, -1),
      JSON.stringify({ file: "renders/../../escaped.png", data: "AAAA" }),
      all.at(-1)!,
    ]);
    await refusedBoth(
      badRender,
      /line \d+: field "file" names "renders\/..\/..\/escaped.png", outside the render folder/,
      BackupFileError,
    );
    expect(fs.existsSync(path.join(dir, "escaped.png"))).toBe(false);
    const cut = variant("cut", (all) => all.slice(0, Math.floor(all.length / 2)));
    await refusedBoth(cut, /cut short/, BackupFileError);

    expect(await tableContents(serverUrl)).toEqual(before);
    const db = await openDatabase({ pgliteDir: path.join(folder, "db"), url: "" });
    try {
      expect(await tableContents(db.url!)).toEqual(before);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("replaces a populated PostgreSQL database whole when forced with a good file", async () => {
    const restored = await restoreBackup(base, { url: serverUrl }, { force: true });
    expect(restored.rows.Task).toBe(before.Task!.length);
    expect(await tableContents(serverUrl)).toEqual(before);
    // No scratch schema is left behind.
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      const schemas = await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'colbench_restoring_%'`,
      );
      expect(schemas.rows).toEqual([]);
      // Nor a session holding the migration engine's advisory lock, which the next restore would wait for.
      const locks = await client.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory'`);
      expect(locks.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it("refuses a 700 MB line with a message, without building it", async () => {
    const file = path.join(dir, "long-line.backup.gz");
    const gzip = zlib.createGzip({ level: 1 });
    const out = fs.createWriteStream(file);
    gzip.pipe(out);
    gzip.write(lines[0] + "\n" + lines[1] + '\n["');
    const mib = Buffer.alloc(1024 * 1024, "a");
    for (let i = 0; i < 700; i++) if (!gzip.write(mib)) await once(gzip, "drain");
    gzip.end('"]\n');
    await once(out, "close");
    const started = process.memoryUsage().rss;
    await expect(restoreBackup(file, { folder: path.join(dir, "never") })).rejects.toThrow(
      /line 3 is longer than 128 MiB, more than any line a studio writes: refused/,
    );
    expect(process.memoryUsage().rss - started).toBeLessThan(400 * 1024 * 1024);
    expect(fs.existsSync(path.join(dir, "never", "db"))).toBe(false);
  }, 120_000);
});
