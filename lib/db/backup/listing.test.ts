import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../open";
import { backupSchedule, listBackups, pruneBackups, recordBackup, scheduleBackups } from "./service";

// The System page's Backups panel: what lies in the folder, not what backups.jsonl remembers.

const root = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-backup-list-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("listBackups", () => {
  it("lists only the backups that exist, newest first, with size and time, after rotation deleted the older ones the log still names", async () => {
    const dir = path.join(root, "backups");
    fs.mkdirSync(dir);
    const names = [
      "colbench-20260101T000000Z.backup.gz",
      "colbench-20260102T060000Z.backup.gz",
      "colbench-20260103T120000Z.backup.gz",
      "colbench-20260104T180000Z.backup.gz",
    ];
    names.forEach((name, i) => {
      fs.writeFileSync(path.join(dir, name), Buffer.alloc(1000 * (i + 1)));
      recordBackup(root, {
        file: path.join(dir, name),
        takenAt: "2026-01-01T00:00:00.000Z",
        finishedAt: "2026-01-01T00:00:01.000Z",
        bytes: 1000 * (i + 1),
        rows: 1,
        files: 0,
        by: "test",
      });
    });
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a backup");
    expect(pruneBackups(dir, 2)).toEqual(names.slice(0, 2));

    const listed = await listBackups(dir);
    expect(listed.map((b) => b.name)).toEqual([names[3], names[2]]);
    expect(listed[0]).toMatchObject({
      file: path.join(dir, names[3]!),
      bytes: 4000,
      takenAt: "2026-01-04T18:00:00.000Z",
    });
    expect(listed[1]).toMatchObject({ bytes: 3000, takenAt: "2026-01-03T12:00:00.000Z" });
    expect(Number.isNaN(Date.parse(listed[0]!.modifiedAt))).toBe(false);
  });

  it("is empty for a folder that does not exist yet", async () => {
    expect(await listBackups(path.join(root, "none"))).toEqual([]);
  });
});

describe("backupSchedule", () => {
  it("is this process's --backup-every schedule with its next time while it runs, and none after it stops", async () => {
    expect(backupSchedule()).toBeNull();
    const before = Date.now();
    const scheduled = scheduleBackups({} as Database, {
      everyMs: 6 * 3_600_000,
      dir: path.join(root, "scheduled"),
      keep: 3,
      dataDir: root,
    });
    const schedule = backupSchedule();
    expect(schedule).toMatchObject({ everyMs: 6 * 3_600_000, dir: path.join(root, "scheduled"), keep: 3 });
    const next = Date.parse(schedule!.nextAt);
    expect(next).toBeGreaterThanOrEqual(before + 6 * 3_600_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 6 * 3_600_000);
    await scheduled.stop();
    expect(backupSchedule()).toBeNull();
  });
});
