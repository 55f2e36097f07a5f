import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../testing/postgres-server";
import { openDatabase, type Database } from "../open";
import { redact } from "../location";
import { backupDatabase } from ".";
import { runColbench } from "../../../cli/testing/colbench";

// What a backup writes and prints: the file under construction is this process's own (never written
// through a planted link, never readable by others), and no secret of the database URL reaches the file
// or the console.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-backup-hygiene-"));
let postgres: PostgresServer;
let db: Database;

beforeAll(async () => {
  postgres = await startPostgres();
  db = await openDatabase({ url: await postgres.createDatabase("hygiene") });
}, 120_000);

afterAll(async () => {
  await db?.close();
  await postgres?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a backup's file and output", () => {
  it("refuses to write through a planted .partial link, and leaves its target alone", async () => {
    const victim = path.join(dir, "victim.txt");
    fs.writeFileSync(victim, "precious");
    const file = path.join(dir, "linked.backup.gz");
    fs.symlinkSync(victim, `${file}.partial`);
    await expect(backupDatabase(db, file)).rejects.toThrow(
      /linked\.backup\.gz\.partial exists and is a symbolic link: refusing to write the backup through it/,
    );
    expect(fs.readFileSync(victim, "utf8")).toBe("precious");
    expect(fs.existsSync(file)).toBe(false);
  });

  it("replaces a leftover regular .partial, and the backup is readable by its owner only", async () => {
    const file = path.join(dir, "leftover.backup.gz");
    fs.writeFileSync(`${file}.partial`, "left by a killed backup", { mode: 0o644 });
    fs.chmodSync(`${file}.partial`, 0o644);
    await backupDatabase(db, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it("hides every secret of a URL: the password and query values other than known harmless ones", () => {
    expect(
      redact("postgresql://ann:pw1@db.example/studio?password=pw2&sslmode=require&sslpassword=pw3&token=pw4"),
    ).toBe("postgresql://ann:***@db.example/studio?password=***&sslmode=require&sslpassword=***&token=***");
    expect(redact("postgresql://ann@db.example:5433/studio")).toBe("postgresql://ann@db.example:5433/studio");
  });

  it("writes no ?password= into the file or the console line", async () => {
    const secret = "hunter2-in-the-query";
    // The throwaway server trusts its clients: the password is sent and ignored, as a real one would check it.
    const url = new URL(await postgres.createDatabase("with_password"));
    await (await openDatabase({ url: url.toString() })).close();
    url.searchParams.set("password", secret);
    const file = path.join(dir, "password.backup.gz");
    const outcome = await runColbench(path.join(dir, "data"), ["db", "backup", file], {
      env: { DATABASE_URL: url.toString() },
    });
    expect(outcome.stderr).not.toContain(secret);
    expect(outcome.status, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/backup of postgresql postgresql:\/\/.*password=\*\*\*/);
    expect(outcome.stdout + outcome.stderr).not.toContain(secret);
    expect(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8")).not.toContain(secret);
    expect(fs.readFileSync(path.join(dir, "data", "backups.jsonl"), "utf8")).not.toContain(secret);
  }, 60_000);
});
