import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import { createQueue } from "./build";
import { label, labelAt, nextPair, openDesk, skip, undo, type Desk } from "./desk";
import { parseQuota, setQuota } from "./quota";
import { makeRunPair, type RunPair } from "./testing/run-pair";

// "Left for you", the queue's per-person quota and the label times the estimate's pace is read from,
// on both databases: what the desk's answers say (every path a key press takes), and that a person
// at the quota gets no pair.

const { backends, cleanup } = databaseBackends("quota");
afterAll(cleanup);

describe.each(backends)("quota and pace on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 12 });
    for (let i = 0; i < 4; i++) {
      const { user } = await addUser(store, `person${i}`, "annotator");
      viewers.push({ kind: "user", id: user.id, name: user.name, role: "annotator" });
    }
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const desk = async (viewer: Viewer, queueId: number): Promise<Desk> => {
    const opened = await openDesk(store, viewer, queueId);
    if ("error" in opened) throw new Error(opened.error);
    return opened;
  };
  const idOf = (viewer: Viewer) => (viewer as { id: number }).id;

  it("counts the pairs left under the quota, the median time per label, and hands out nothing past the quota", async () => {
    const queue = await createQueue(store, {
      name: "capped",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      quota: 3,
      members: ["person0", "person1"],
    });
    expect((await store.queues.find(queue.id))!.quota).toBe(3);
    const [zero, one] = [viewers[0]!, viewers[1]!];
    // 12 pairs free, but the quota lets this person label 3 of them.
    expect(await store.labels.progress(queue.id, idOf(zero))).toEqual({
      mine: 0,
      given: 0,
      wanted: 24,
      left: 3,
      quota: 3,
      counted: 0,
      recentMs: [],
    });
    const d = await desk(zero, queue.id);
    let pair = (await nextPair(store, d, []))!;
    // The one-statement key press (no gold, plain schema): its answer counts the label it stores.
    const times = [4000, 1000, 2500];
    const answers = [];
    for (const ms of times) {
      const pressed = await label(store, d, { itemId: pair.itemId, side: "left", ms, holding: [] });
      if (!pressed.ok) throw new Error(pressed.error);
      answers.push(pressed.progress);
      pair = pressed.next!;
    }
    expect(answers.map((p) => [p.left, p.counted])).toEqual([
      [2, 1],
      [1, 2],
      [0, 3],
    ]);
    // A key press does not read the pace; the desk's progress does: the label times, latest first.
    expect(answers[0]!.recentMs).toBeUndefined();
    // At the quota: the last answer claimed nothing, and nothing more is handed out.
    expect(pair).toBeNull();
    expect(await nextPair(store, d, [])).toBeNull();
    expect(await store.labels.progress(queue.id, idOf(zero))).toMatchObject({
      left: 0,
      counted: 3,
      recentMs: [2500, 1000, 4000],
    });
    // Someone else is not held back by it.
    expect(await store.labels.progress(queue.id, idOf(one))).toMatchObject({ left: 3, counted: 0 });

    // Undo gives one back: a pair is left again (the reopened one), and labelling it reaches the quota again.
    const undone = await undo(store, d);
    expect(undone.progress).toMatchObject({ left: 1, counted: 2, recentMs: [1000, 4000] });
    const again = await labelAt(store, zero, queue.id, {
      itemId: undone.pair!.itemId,
      side: "right",
      ms: 6000,
      holding: [],
    });
    expect(again.ok && again.progress).toMatchObject({ left: 0, counted: 3 });
    expect(again.ok && again.next).toBeNull();

    // The lead raises the quota: two more pairs are left for this person and handed out.
    expect(await setQuota(store, (await store.queues.find(queue.id))!, 5)).toEqual({
      queue: "capped",
      quota: 5,
      was: 3,
    });
    expect(await store.labels.progress(queue.id, idOf(zero))).toMatchObject({ left: 2, quota: 5 });
    const more = (await nextPair(store, await desk(zero, queue.id), []))!;
    expect(more).not.toBeNull();
    // Held pairs count toward the quota: with one held, one more may be claimed, then none.
    const held = (await nextPair(store, await desk(zero, queue.id), [more.itemId]))!;
    expect(held.itemId).not.toBe(more.itemId);
    expect(await nextPair(store, await desk(zero, queue.id), [more.itemId, held.itemId])).toBeNull();
    expect(await store.labels.progress(queue.id, idOf(zero))).toMatchObject({ left: 2, counted: 3 });
    // A skipped pair is given back: it no longer counts, so one more may be claimed; it is not left any more.
    const skipped = await skip(store, await desk(zero, queue.id), held.itemId, [more.itemId]);
    expect(skipped.next).not.toBeNull();
    expect(skipped.progress).toMatchObject({ left: 2, counted: 3 });
    // Lowered below what was labelled: what is held stays theirs, nothing new comes, no label is taken back.
    await store.queues.setQuota(queue.id, 2);
    expect(await store.labels.progress(queue.id, idOf(zero))).toMatchObject({ left: 2, counted: 3, quota: 2 });
    expect(await nextPair(store, await desk(zero, queue.id), [more.itemId, skipped.next!.itemId])).toBeNull();
    expect((await store.labels.ofQueue(queue.id)).filter((l) => l.userId === idOf(zero))).toHaveLength(3);
    // No cap again: the 2 held and every pair this person was never shown (12 less the 6 shown) are left.
    await store.queues.setQuota(queue.id, null);
    expect(await store.labels.progress(queue.id, idOf(zero))).toMatchObject({
      quota: null,
      counted: null,
      left: 2 + 12 - 6,
      recentMs: [6000, 1000, 4000],
    });
  });

  it("a queue with gold pairs (the desk's two-step way): gold takes no quota, but none comes past it", async () => {
    const queue = await createQueue(store, {
      name: "capped-gold",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      gold: 2,
      goldRate: 0.5,
      goldGap: 0.5,
      quota: 2,
      members: ["person2"],
    });
    // The coin never says gold until the quota is reached.
    const d: Desk = { ...(await desk(viewers[2]!, queue.id)), random: () => 1 };
    let pair = (await nextPair(store, d, []))!;
    for (const ms of [300, 500]) {
      const pressed = await label(store, d, { itemId: pair.itemId, side: "tie", ms, holding: [] });
      if (!pressed.ok) throw new Error(pressed.error);
      pair = pressed.next!;
    }
    expect(pair).toBeNull();
    // Now the coin always says gold: still nothing, the person is at the quota.
    expect(await nextPair(store, { ...d, random: () => 0 }, [])).toBeNull();
    expect(await store.labels.progress(queue.id, idOf(viewers[2]!))).toMatchObject({
      left: 0,
      counted: 2,
      quota: 2,
      recentMs: [500, 300],
    });
  });

  it("a quota is a whole number of pairs, at least 1, or none", async () => {
    expect(parseQuota("40")).toBe(40);
    expect(parseQuota(" none ")).toBeNull();
    expect(parseQuota("")).toBeNull();
    expect(() => parseQuota("0")).toThrow(/quota: a whole number of pairs, at least 1/);
    expect(() => parseQuota("2.5", "<pairs>")).toThrow(/<pairs>: .*got "2.5"/);
    await expect(
      createQueue(store, {
        name: "bad-quota",
        source: { from: "runs", a: runs.a.name, b: runs.b.name },
        overlap: 1,
        quota: 0,
      }),
    ).rejects.toThrow(/quota: a whole number of pairs, at least 1 \(got 0\)/);
    await expect(store.queues.setQuota(1, -3)).rejects.toThrow(/quota: -3/);
  });
});
