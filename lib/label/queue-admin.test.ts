import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import { addPairs, createQueue } from "./build";
import { label, labelAt, nextPair, openDesk, revise, undo, type Desk } from "./desk";
import { addMembers, deleteExportingTo, setTraining } from "./manage";
import { itemRows, ITEM_COLUMNS } from "./items-table";
import { tableCsv } from "../table/table";
import { makeRunPair, type RunPair } from "./testing/run-pair";

// A lead running a queue from its page: pairs added to a queue that exists (each once, after the
// ones there), its pairs browsed with their labels page by page, training mode's word after a gold
// pair (only once the label is stored, only to the person who gave it, and never taken back), and a
// delete that writes the labels to a new file first.

const { backends, cleanup } = databaseBackends("queue-admin");
afterAll(cleanup);

describe.each(backends)("a lead's queue on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const viewers: Viewer[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-queue-admin-"));

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 8, prefix: "admin" });
    for (let i = 0; i < 3; i++) {
      const { user } = await addUser(store, `ann${i}`, "annotator");
      viewers.push({ kind: "user", id: user.id, name: user.name, role: "annotator" });
    }
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const desk = async (viewer: Viewer, queueId: number, coin?: () => number): Promise<Desk> => {
    const opened = await openDesk(store, viewer, queueId);
    if ("error" in opened) throw new Error(opened.error);
    return coin ? { ...opened, random: coin } : opened;
  };
  const source = () => ({ from: "runs" as const, a: runs.a.name, b: runs.b.name });
  /** The side this person must press for the pair's stored choice `choice`. */
  const sideFor = async (d: Desk, itemId: number, choice: "a" | "b") => {
    const { leftIsA } = await db.prisma.assignment.findUniqueOrThrow({
      where: { itemId_userId: { itemId, userId: d.userId } },
    });
    return (choice === "a") === leftIsA ? ("left" as const) : ("right" as const);
  };

  it("adds a source's pairs once, after the ones there, each with the queue's overlap", async () => {
    const made = await createQueue(store, { name: "growing", source: source(), overlap: 2, limit: 3 });
    expect(made).toMatchObject({ items: 3, slots: 6 });
    const queue = (await store.queues.find(made.id))!;
    expect(await addPairs(store, queue, { source: source() })).toEqual({
      queue: "growing",
      added: 5,
      gold: 0,
      slots: 10,
      already: 3,
    });
    expect((await store.queues.find(made.id))!.wanted).toBe(16);
    const ordinals = await db.prisma.queueItem.findMany({ where: { queueId: made.id }, select: { ordinal: true } });
    expect(ordinals.map((o) => o.ordinal).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Every task once: the same pairs again are refused, and nothing is added.
    await expect(addPairs(store, queue, { source: source() })).rejects.toThrow(
      /^source: every one of its 8 pairs is in queue growing already/,
    );
    await expect(addPairs(store, queue, { source: { from: "runs", a: runs.a.name, b: runs.a.name } })).rejects.toThrow(
      /^source\.b: pick two different runs/,
    );
    // Gold pairs at a queue that mixes none in would never be shown.
    await expect(addPairs(store, queue, { source: source(), gold: 1 })).rejects.toThrow(/^gold: queue growing mixes/);
    expect(await db.prisma.queueItem.count({ where: { queueId: made.id } })).toBe(8);
  });

  it("browses pairs with their labels: paged, ordered by the database, the same cells as the export", async () => {
    const made = await createQueue(store, { name: "browsed", source: source(), overlap: 2 });
    const queue = (await store.queues.find(made.id))!;
    await addMembers(store, queue, ["ann0", "ann1"]);
    // Both label the same first two pairs (overlap 2, slots in queue order): both say A on the first
    // (each pressing the side A was shown on), and split on the second.
    const splits = ["tie", "both_bad"] as const;
    for (const [who, viewer] of [viewers[0]!, viewers[1]!].entries()) {
      const d = await desk(viewer, made.id);
      const one = (await nextPair(store, d, []))!;
      const agreed = await sideFor(d, one.itemId, "a");
      expect((await label(store, d, { itemId: one.itemId, side: agreed, ms: 5, holding: [] })).ok).toBe(true);
      const two = (await nextPair(store, d, []))!;
      expect((await label(store, d, { itemId: two.itemId, side: splits[who]!, ms: 5, holding: [] })).ok).toBe(true);
    }
    const first = await store.queues.browse(made.id, { limit: 3 });
    expect(first.total).toBe(8);
    expect(first.items.map((i) => i.ordinal)).toEqual([0, 1, 2]);
    expect(first.items[0]).toMatchObject({ labelCount: 2, wanted: 2, choices: 1 });
    expect(first.items[1]).toMatchObject({ labelCount: 2, choices: 2 });
    expect(first.items[1]!.labels.map((l) => [l.user, l.choice])).toEqual([
      ["ann0", "tie"],
      ["ann1", "both_bad"],
    ]);
    expect(first.items[0]!.lastLabelAt).toBeInstanceOf(Date);
    const later = await store.queues.browse(made.id, { limit: 3, offset: 6 });
    expect(later.items.map((i) => i.ordinal)).toEqual([6, 7]);
    const split = await store.queues.browse(made.id, { order: "split", dir: "desc", limit: 1 });
    expect(split.items.map((i) => i.ordinal)).toEqual([1]);
    const unlabelledFirst = await store.queues.browse(made.id, { order: "labels", dir: "asc", limit: 8 });
    expect(unlabelledFirst.items.map((i) => i.labelCount)).toEqual([0, 0, 0, 0, 0, 0, 2, 2]);
    // An order the browser does not know falls back to queue order.
    const odd = await store.queues.browse(made.id, { order: "nope; DROP TABLE x" as never, limit: 2 });
    expect(odd.items.map((i) => i.ordinal)).toEqual([0, 1]);
    const csv = tableCsv(ITEM_COLUMNS, itemRows(first.items)).split("\r\n");
    expect(csv[0]).toMatch(/^#,Pair,Task,Gold/);
    expect(csv[2]).toContain("ann0: tie; ann1: both bad");
    expect(csv[2]).toContain("split");
  });

  it("training mode: the answer and its reason come with a stored gold label, to its person only", async () => {
    const made = await createQueue(store, {
      name: "training",
      source: source(),
      overlap: 1,
      gold: 2,
      goldRate: 1,
      trainingMode: true,
      members: ["ann0", "ann1"],
    });
    const queue = (await store.queues.find(made.id))!;
    expect(queue.trainingMode).toBe(true);
    const d = await desk(viewers[0]!, made.id, () => 0);
    const first = (await nextPair(store, d, []))!;
    const gold = (await store.queues.item(first.itemId))!.gold!;
    // Before the label, nothing the person is sent says "gold".
    expect(JSON.stringify(first)).not.toMatch(/gold|better answer|tests passed/i);
    const right = await sideFor(d, first.itemId, gold === "a" ? "a" : "b");
    const matched = await label(store, d, { itemId: first.itemId, side: right, ms: 3, holding: [] });
    expect(matched).toMatchObject({ ok: true, feedback: { matched: true, answer: right, yours: right } });
    const reason = matched.ok ? matched.feedback!.reason : null;
    expect(reason).toMatch(/^The better answer: 100% of the hidden tests passed\. The other: 50%/);
    // The pair already handed on (held ahead) says nothing of gold either.
    expect(JSON.stringify(matched.ok && matched.next)).not.toMatch(/gold|better answer/i);

    const second = (await nextPair(store, d, [first.itemId]))!;
    const secondGold = (await store.queues.item(second.itemId))!.gold!;
    const wrong = await sideFor(d, second.itemId, secondGold === "a" ? "b" : "a");
    const missed = await label(store, d, { itemId: second.itemId, side: wrong, ms: 3, holding: [] });
    expect(missed).toMatchObject({ ok: true, feedback: { matched: false, yours: wrong } });
    expect(missed.ok && missed.feedback!.answer).toBe(wrong === "left" ? "right" : "left");

    // Told the answer, the label stays: undo and changes are refused, and the label is as given.
    expect(await undo(store, d)).toMatchObject({ pair: null, refused: expect.stringMatching(/gold pair/) as unknown });
    expect(await revise(store, d, { itemId: second.itemId, side: right, ms: 1 })).toMatchObject({
      ok: false,
      status: 409,
    });
    const mine = (await store.labels.ofQueue(made.id)).filter((l) => l.user === "ann0");
    expect(mine).toHaveLength(2);
    expect(mine.filter((l) => l.choice === l.item.gold)).toHaveLength(1);

    // A non-gold pair (no gold left for ann0) gets no word, and may be undone as before.
    const plain = (await nextPair(store, d, []))!;
    expect((await store.queues.item(plain.itemId))!.gold).toBeNull();
    const out = await label(store, d, { itemId: plain.itemId, side: "tie", ms: 3, holding: [] });
    expect(out.ok && "feedback" in out).toBe(false);
    expect((await undo(store, d)).pair?.itemId).toBe(plain.itemId);

    // Someone else sending ann0's gold pair stores nothing and learns nothing (it is not theirs).
    const other = await desk(viewers[1]!, made.id, () => 1);
    const stolen = await label(store, other, { itemId: first.itemId, side: "left", ms: 1, holding: [] });
    expect(stolen).toMatchObject({ ok: false, status: 409 });
    expect(JSON.stringify(stolen)).not.toMatch(/better answer|matched/);
    // An annotator who is no member is refused before anything, with no word of gold.
    const outsider = await labelAt(store, viewers[2]!, made.id, {
      itemId: second.itemId,
      side: "left",
      ms: 1,
      holding: [],
    });
    expect(outsider).toEqual({ ok: false, status: 403, error: "you are not a member of this queue" });

    // Training off: a gold label gets no word.
    await setTraining(store, queue, false);
    const quiet = await desk(viewers[1]!, made.id, () => 0);
    const g = (await nextPair(store, quiet, []))!;
    expect((await store.queues.item(g.itemId))!.gold).not.toBeNull();
    const said = await label(store, quiet, { itemId: g.itemId, side: "left", ms: 1, holding: [] });
    expect(said.ok && "feedback" in said).toBe(false);
  });

  it("a gold pair added later carries its reason; delete from the page writes the labels to a new file first", async () => {
    const made = await createQueue(store, {
      name: "to go",
      source: source(),
      overlap: 1,
      gold: 1,
      goldRate: 0.5,
      limit: 4,
    });
    const queue = (await store.queues.find(made.id))!;
    expect(await addPairs(store, queue, { source: source(), gold: 1 })).toMatchObject({ added: 4, gold: 1 });
    const golds = (await store.queues.browse(made.id, { order: "gold", dir: "asc", limit: 2 })).items;
    expect(golds.map((i) => Boolean(i.gold))).toEqual([true, true]);
    for (const i of golds) expect(i.goldReason).toMatch(/^The better answer: /);
    const d = await desk({ kind: "local" }, made.id, () => 1);
    const pair = (await nextPair(store, d, []))!;
    expect((await label(store, d, { itemId: pair.itemId, side: "left", ms: 1, holding: [] })).ok).toBe(true);
    const folder = path.join(scratch, "exports");
    const done = await deleteExportingTo(store, queue, folder);
    expect(done).toMatchObject({ queue: "to go", deleted: true, labels: 1 });
    expect(path.dirname(done.file)).toBe(folder);
    expect(path.basename(done.file)).toMatch(new RegExp(`^queue-${made.id}-to_go-\\d{14}\\.labels\\.jsonl$`));
    expect(fs.readFileSync(done.file, "utf8").trim().split("\n")).toHaveLength(1);
    expect(await store.queues.find(made.id)).toBeNull();
  });
});
