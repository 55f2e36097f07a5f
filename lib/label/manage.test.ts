import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import { createQueue } from "./build";
import { label, labelAt, nextPair, openDesk, type Desk } from "./desk";
import { deleteWithExport, editInstructions, removeMembers, setState } from "./manage";
import { withoutPaused } from "./gold";
import { makeRunPair, type RunPair } from "./testing/run-pair";

// Running a queue: closing and archiving keep every label and stop the desk; taking a person off
// keeps their labels and frees what they held; deleting writes the labels to a file first; a gold
// threshold pauses a person who gets known answers wrong, and their labels can be left out.

const { backends, cleanup } = databaseBackends("label-manage");
afterAll(cleanup);

describe.each(backends)("queue management on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const viewers: Viewer[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-manage-"));

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 8, prefix: "manage" });
    for (let i = 0; i < 2; i++) {
      const { user } = await addUser(store, `lead${i}`, "annotator");
      viewers.push({ kind: "user", id: user.id, name: user.name, role: "annotator" });
    }
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const desk = async (viewer: Viewer, queueId: number): Promise<Desk> => {
    const opened = await openDesk(store, viewer, queueId);
    if ("error" in opened) throw new Error(opened.error);
    return opened;
  };
  const make = (name: string) =>
    createQueue(store, {
      name,
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      members: ["lead0", "lead1"],
    });

  it("close and archive keep every label and stop the desk; reopen lets it go on", async () => {
    const made = await make("closing");
    const d = await desk(viewers[0]!, made.id);
    const pair = (await nextPair(store, d, []))!;
    expect((await label(store, d, { itemId: pair.itemId, side: "left", ms: 1, holding: [] })).ok).toBe(true);
    const held = (await nextPair(store, d, []))!;
    let queue = (await store.queues.find(made.id))!;
    expect((await setState(store, queue, "closed")).state).toBe("closed");
    expect(await store.labels.ofQueue(made.id)).toHaveLength(1);
    expect(await openDesk(store, viewers[0]!, made.id)).toEqual({
      status: 409,
      error: expect.stringMatching(/^queue closing is closed/) as unknown,
    });
    // The one-statement key press refuses too, and writes nothing.
    expect(
      await labelAt(store, viewers[0]!, made.id, { itemId: held.itemId, side: "left", ms: 1, holding: [] }),
    ).toMatchObject({ ok: false, status: 409 });
    expect(await store.labels.ofQueue(made.id)).toHaveLength(1);
    queue = (await store.queues.find(made.id))!;
    await setState(store, queue, "archived");
    expect((await store.queues.list()).map((q) => q.name)).not.toContain("closing");
    expect((await store.queues.list({ archived: true })).map((q) => q.name)).toContain("closing");
    expect(await store.labels.ofQueue(made.id)).toHaveLength(1);
    await setState(store, queue, "open");
    expect(
      (await labelAt(store, viewers[0]!, made.id, { itemId: held.itemId, side: "right", ms: 1, holding: [] })).ok,
    ).toBe(true);
    expect(await store.labels.ofQueue(made.id)).toHaveLength(2);
  });

  it("instructions change; a person taken off keeps their labels and their held pair goes back", async () => {
    const made = await make("members-off");
    let queue = (await store.queues.find(made.id))!;
    await editInstructions(store, queue, "## Now judge the tests first");
    expect((await store.queues.find(made.id))!.instructions).toBe("## Now judge the tests first");
    const d = await desk(viewers[1]!, made.id);
    const pair = (await nextPair(store, d, []))!;
    expect((await label(store, d, { itemId: pair.itemId, side: "tie", ms: 1, holding: [] })).ok).toBe(true);
    const held = (await nextPair(store, d, []))!;
    queue = (await store.queues.find(made.id))!;
    expect(await removeMembers(store, queue, ["lead1"])).toEqual({ queue: "members-off", removed: 1, released: 1 });
    expect(await openDesk(store, viewers[1]!, made.id)).toMatchObject({ status: 403 });
    expect((await store.labels.ofQueue(made.id)).map((l) => l.user)).toEqual(["lead1"]);
    expect(
      (await store.queues.slots(made.id)).filter((s) => s.itemId === held.itemId).every((s) => s.userId === null),
    ).toBe(true);
    await expect(removeMembers(store, (await store.queues.find(made.id))!, ["lead1"])).rejects.toThrow(
      /^members: not members of members-off: lead1/,
    );
  });

  it("delete writes every label to a new file, reads it back, then deletes; an existing file stops it", async () => {
    const made = await make("deleting");
    for (const viewer of viewers) {
      const d = await desk(viewer, made.id);
      for (let i = 0; i < 2; i++) {
        const pair = (await nextPair(store, d, []))!;
        expect((await label(store, d, { itemId: pair.itemId, side: "left", ms: 1, holding: [] })).ok).toBe(true);
      }
    }
    const taken = path.join(scratch, "taken.jsonl");
    fs.writeFileSync(taken, "keep me\n");
    const queue = (await store.queues.find(made.id))!;
    await expect(deleteWithExport(store, queue, taken)).rejects.toThrow(/^export: .* exists already/);
    expect(fs.readFileSync(taken, "utf8")).toBe("keep me\n");
    expect(await store.labels.ofQueue(made.id)).toHaveLength(4);
    const file = path.join(scratch, "deleting.jsonl");
    expect(await deleteWithExport(store, queue, file)).toEqual({ queue: "deleting", deleted: true, labels: 4, file });
    const lines = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { queue: string; annotator: string; choice: string });
    expect(lines).toHaveLength(4);
    expect(lines.every((l) => l.queue === "deleting")).toBe(true);
    expect(await store.queues.find(made.id)).toBeNull();
    expect(await store.labels.ofQueue(made.id)).toEqual([]);
  });

  it("a gold threshold pauses a person below it (after its minimum), says why, and their labels can be left out", async () => {
    const made = await createQueue(store, {
      name: "gold-acts",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      members: ["lead0", "lead1"],
      gold: 2,
      goldRate: 1,
      goldThreshold: 0.5,
      goldMinimum: 2,
    });
    // Each gets both gold pairs first (the coin always says gold): lead0 answers as known, lead1 the other way.
    for (const [i, right] of [
      [0, true],
      [1, false],
    ] as const) {
      const d = { ...(await desk(viewers[i]!, made.id)), random: () => 0 };
      for (let n = 0; n < 2; n++) {
        const pair = (await nextPair(store, d, []))!;
        const gold = (await store.queues.item(pair.itemId))!.gold!;
        const { leftIsA } = await db.prisma.assignment.findUniqueOrThrow({
          where: { itemId_userId: { itemId: pair.itemId, userId: d.userId } },
        });
        const wantA = (gold === "a") === right;
        expect(
          (
            await label(store, d, {
              itemId: pair.itemId,
              side: wantA === leftIsA ? "left" : "right",
              ms: 1,
              holding: [],
            })
          ).ok,
        ).toBe(true);
      }
    }
    expect(await openDesk(store, viewers[0]!, made.id)).not.toHaveProperty("error");
    expect(await openDesk(store, viewers[1]!, made.id)).toEqual({
      status: 423,
      error: expect.stringMatching(/^you are paused at this queue: 0 of 2 pairs with a known answer/) as unknown,
    });
    expect(await labelAt(store, viewers[1]!, made.id, { itemId: 1, side: "left", ms: 1, holding: [] })).toMatchObject({
      ok: false,
      status: 423,
    });
    const labels = await store.labels.ofQueue(made.id);
    expect(labels).toHaveLength(4);
    const queue = (await store.queues.find(made.id))!;
    expect(withoutPaused(queue, labels).map((l) => l.user)).toEqual(["lead0", "lead0"]);
  });
});
