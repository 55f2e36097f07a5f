import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../testing/backends";
import { startPostgres, type PostgresServer } from "../testing/postgres-server";
import { openDatabase, type Database } from "../open";
import { storeFor } from "../../store";
import { addUser } from "../../access/users";
import { createQueue } from "../../label/build";
import { label, nextPair, openDesk } from "../../label/desk";
import { userViewer } from "../../access/viewer";
import { makeRunPair } from "../../label/testing/run-pair";
import { backupDatabase, restoreBackup, RestoreRefused, BackupFileError, inspectBackup } from ".";
import { tableContents } from "./testing/contents";
import { migrationNames } from "../migration-files";

// Backups in both directions between the two databases: what a restore holds is, table by table and
// row by row, what the source held; damaged files and occupied targets change nothing.

const { backends, dir, cleanup } = databaseBackends("backup");
let postgres: PostgresServer | undefined;
afterAll(async () => {
  await postgres?.stop();
  await cleanup();
});
const server = async () => (postgres ??= await startPostgres());

async function fill(db: Database): Promise<void> {
  const store = storeFor(db.prisma);
  await store.tasks.seedSamplesIfEmpty();
  const runs = await makeRunPair(store, { tasks: 6, prefix: "bk" });
  await addUser(store, "ann", "annotator");
  await addUser(store, "bea", "annotator");
  const queue = await createQueue(store, {
    name: "q",
    source: { from: "runs", a: runs.a.name, b: runs.b.name },
    overlap: 2,
    members: ["ann", "bea"],
  });
  let n = 0;
  for (const user of await store.users.list()) {
    const desk = await openDesk(store, userViewer(user), queue.id);
    if ("error" in desk) throw new Error(desk.error);
    for (let i = 0; i < 2; i++, n++) {
      const pair = await nextPair(store, desk, []);
      const comment = n === 0 ? 'tab\there, "quotes", ünïcode, NULL-looking \\N' : null;
      const done = await label(store, desk, { itemId: pair!.itemId, side: "left", comment, ms: 1200 + n, holding: [] });
      if (!done.ok) throw new Error(done.error);
    }
  }
}

describe.each(backends)("backup and restore from $label", (backend) => {
  let source: Database;
  let file: string;

  it("restores into a new folder and into an empty PostgreSQL database, row for row", async () => {
    source = await backend.open();
    await fill(source);
    file = path.join(dir, `${backend.label}.backup.gz`);
    const result = await backupDatabase(source, file);
    expect(result.migrations).toEqual(migrationNames());
    expect(result.rows.Label).toBe(4);
    expect(result.rows.Turn).toBe(48);
    const before = await tableContents(source.url!);
    expect(Object.keys(result.rows).sort()).toEqual(Object.keys(before).sort());

    const folder = path.join(dir, `restored-${backend.label}`);
    const intoFolder = await restoreBackup(file, { folder });
    expect(intoFolder.rows).toEqual(result.rows);
    expect(intoFolder.upgraded).toEqual([]);
    const restored = await openDatabase({ pgliteDir: path.join(folder, "db"), url: "" });
    try {
      expect(await tableContents(restored.url!)).toEqual(before);
      // Sequences go on after the restored ids: a new row does not collide.
      const user = await addUser(storeFor(restored.prisma), "new-after-restore", "annotator");
      expect(user.user.id).toBeGreaterThan(
        Math.max(...before.User!.map((line) => Number(line.slice(1).split(",")[0]))),
      );
    } finally {
      await restored.close();
    }

    const url = await (await server()).createDatabase(`restored_from_${backend.label}`);
    const intoServer = await restoreBackup(file, { url });
    expect(intoServer.rows).toEqual(result.rows);
    expect(await tableContents(url)).toEqual(before);
  });

  it("refuses a target that holds data unless forced", async () => {
    const folder = path.join(dir, `restored-${backend.label}`);
    await expect(restoreBackup(file, { folder })).rejects.toThrow(/already holds a database.*--force/);
    const forced = await restoreBackup(file, { folder }, { force: true });
    expect(forced.rows.Label).toBe(4);
    // A folder in use is never replaced, forced or not.
    const open = await openDatabase({ pgliteDir: path.join(folder, "db"), url: "" });
    try {
      await expect(restoreBackup(file, { folder }, { force: true })).rejects.toThrow(RestoreRefused);
    } finally {
      await open.close();
    }
    await expect(restoreBackup(file, { url: source.url! })).rejects.toThrow(/already has \d+ table\(s\)/);
  });

  it("refuses a file cut short or from a newer studio, before touching the target", async () => {
    const whole = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").split("\n");
    const cut = path.join(dir, `cut-${backend.label}.gz`);
    fs.writeFileSync(cut, zlib.gzipSync(whole.slice(0, Math.floor(whole.length / 2)).join("\n") + "\n"));
    const folder = path.join(dir, `never-${backend.label}`);
    await expect(restoreBackup(cut, { folder })).rejects.toThrow(BackupFileError);
    await expect(restoreBackup(cut, { folder })).rejects.toThrow(/cut short/);
    expect(fs.existsSync(path.join(folder, "db"))).toBe(false);

    const header = JSON.parse(whole[0]!) as { migrations: string[] };
    const newer = path.join(dir, `newer-${backend.label}.gz`);
    fs.writeFileSync(
      newer,
      zlib.gzipSync(
        [
          JSON.stringify({ ...header, migrations: [...header.migrations, "29990101000000_from_the_future"] }),
          ...whole.slice(1),
        ].join("\n"),
      ),
    );
    expect((await inspectBackup(newer)).header.migrations.at(-1)).toBe("29990101000000_from_the_future");
    await expect(restoreBackup(newer, { folder })).rejects.toThrow(
      /newer ColBench Studio.*29990101000000_from_the_future/,
    );
    expect(fs.existsSync(path.join(folder, "db"))).toBe(false);
    await source.close();
  });
});
