import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "../open";
import { PgliteHost } from "../pglite-host";
import { storeFor, type Store } from "../../store";
import { addUser } from "../../access/users";
import { createQueue } from "../../label/build";
import { label, nextPair, openDesk, type Desk } from "../../label/desk";
import { userViewer } from "../../access/viewer";
import { makeRunPair } from "../../label/testing/run-pair";
import { openSnapshot } from "./snapshot-source";
import { backupDatabase, restoreBackup } from ".";
import { tableContents } from "./testing/contents";

// A backup of the embedded database reads a copy of the folder its owner makes, so a label pressed
// while the backup reads is stored at once, not after the backup: the order of events says so (a
// label stored before the backup's read ends), and the read the old way, holding the owner's
// session, shows the other order. The copy holds the database as it was when taken, and goes away
// with the connection that asked for it.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-snapshot-"));
let db: Database;
let store: Store;
let desk: Desk;
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  store = storeFor(db.prisma);
  const runs = await makeRunPair(store, { tasks: 8, prefix: "snap" });
  const { user } = await addUser(store, "ann", "annotator");
  const queue = await createQueue(store, {
    name: "q",
    source: { from: "runs", a: runs.a.name, b: runs.b.name },
    overlap: 1,
    members: ["ann"],
  });
  const opened = await openDesk(store, userViewer(user), queue.id);
  if ("error" in opened) throw new Error(opened.error);
  desk = opened;
});

const labels = async (client: pg.Client) =>
  Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM "Label"')).rows[0]!.n);

async function pressKey(): Promise<void> {
  const pair = await nextPair(store, desk, []);
  const done = await label(store, desk, { itemId: pair!.itemId, side: "left", ms: 900, holding: [] });
  if (!done.ok) throw new Error(done.error);
}

/**
 * A backup's long read on `url` (one REPEATABLE READ transaction), and a key press while it is open:
 * the read ends when the label is stored or, failing that, after 4 s. Returns which came first.
 */
async function labelDuringRead(url: string): Promise<{ order: string[]; seenByRead: number[] }> {
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  const order: string[] = [];
  const seenByRead: number[] = [];
  try {
    await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    seenByRead.push(await labels(reader));
    const stored = pressKey().then(() => order.push("label stored"));
    await Promise.race([stored, new Promise((resolve) => setTimeout(resolve, 4000))]);
    seenByRead.push(await labels(reader));
    await reader.query("COMMIT");
    order.push("backup read ended");
    await stored;
  } finally {
    await reader.end();
  }
  return { order, seenByRead };
}

describe("an embedded backup reads a copy of the folder", () => {
  it("stores a label pressed during the backup's read before the read ends, and the copy holds the rows as taken", async () => {
    const before = await tableContents(db.url!);
    const snapshot = await openSnapshot(db.url!);
    expect(snapshot).not.toBeNull();
    try {
      expect(fs.existsSync(snapshot!.folder)).toBe(true);
      expect(await tableContents(snapshot!.url)).toEqual(before);
      const { order, seenByRead } = await labelDuringRead(snapshot!.url);
      expect(order).toEqual(["label stored", "backup read ended"]);
      // The copy is the database as it was: the new label is the owner's, not the copy's.
      expect(seenByRead[1]).toBe(seenByRead[0]);
      expect(await store.labels.ofQueue(desk.queue.id)).toHaveLength(seenByRead[0]! + 1);
    } finally {
      await snapshot!.close();
    }
    // The owner removes the copy once the connection that asked for it has ended.
    await vi.waitFor(() => expect(fs.existsSync(snapshot!.folder)).toBe(false), { timeout: 10_000 });
  });

  it("the old read, holding the owner's session, makes the label wait until it ends", async () => {
    const { order } = await labelDuringRead(db.url!);
    expect(order).toEqual(["backup read ended", "label stored"]);
  });

  it("a backup taken during labelling restores every label stored before it began", async () => {
    await pressKey();
    const before = await tableContents(db.url!);
    const file = path.join(dir, "during.backup.gz");
    const backup = backupDatabase(db, file);
    let pressed = 0;
    let finished = false;
    void backup.finally(() => (finished = true));
    while (!finished && pressed < 3) {
      await pressKey();
      pressed++;
    }
    const result = await backup;
    const restored = await restoreBackup(file, { folder: path.join(dir, "restored") });
    const labelsRestored = restored.rows.Label!;
    expect(labelsRestored).toBeGreaterThanOrEqual(before.Label!.length);
    expect(labelsRestored).toBeLessThanOrEqual(before.Label!.length + pressed);
    expect(result.rows.Label).toBe(labelsRestored);
    // No copy is left beside the folder.
    await vi.waitFor(() => expect(fs.readdirSync(dir).filter((name) => name.includes(".snapshot-"))).toEqual([]), {
      timeout: 10_000,
    });
  });

  it("an in-memory database makes no copy: the backup reads its session as before", async () => {
    const host = await PgliteHost.start({ password: "secret", statistics: false });
    try {
      expect(await openSnapshot(`postgresql://colbench:secret@127.0.0.1:${host.address.port}/postgres`)).toBeNull();
    } finally {
      await host.close();
    }
  });
});
