import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import type { Side } from "../store/labels";
import { createQueue } from "./build";
import { history, label, labelAt, later, nextPair, openDesk, reopen, revise, skip, type Desk } from "./desk";
import { agreementReport } from "./report";
import { decisions, rawLabelLine } from "./exports";
import { makeRunPair, type RunPair } from "./testing/run-pair";

// What a label holds beyond the choice, on both databases: a graded queue with criteria and
// required reasons refuses what its schema lacks and stores grade and criteria in a/b terms;
// exports carry them; agreement counts the side. A label reopened and changed is a new version
// that agreement reads; skip with a reason, flag as broken, and "come back later".

const { backends, cleanup } = databaseBackends("label-schema");
afterAll(cleanup);

describe.each(backends)("label schemas, versions and skips on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 6, prefix: "schema" });
    for (let i = 0; i < 4; i++) {
      const { user } = await addUser(store, `grader${i}`, "annotator");
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
  /** The key that means side a (or b) for this person on this pair: the order they were shown. */
  const keyFor = async (d: Desk, itemId: number, want: "a" | "b"): Promise<Side> => {
    const { leftIsA } = await db.prisma.assignment.findUniqueOrThrow({
      where: { itemId_userId: { itemId, userId: d.userId } },
    });
    return (want === "a") === leftIsA ? "left" : "right";
  };

  it("a graded queue with criteria and reasons refuses what it lacks, stores grade and criteria as a/b, exports them, and counts the side", async () => {
    const queue = await createQueue(store, {
      name: "graded",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      limit: 2,
      members: ["grader0", "grader1"],
      labelSchema: { graded: true, criteria: ["correctness", "clarity"], reasonsFor: ["tie", "both_bad"] },
    });
    const one = await desk(viewers[0]!, queue.id);
    expect(one.schema).toEqual({ graded: true, criteria: ["correctness", "clarity"], reasonsFor: ["tie", "both_bad"] });
    const pair = (await nextPair(store, one, []))!;
    const a = await keyFor(one, pair.itemId, "a");
    const b = a === "left" ? "right" : "left";
    const seenA = a as "left" | "right";
    // What the schema lacks is refused with why, and nothing is written.
    expect(
      await labelAt(store, viewers[0]!, queue.id, { itemId: pair.itemId, side: a, ms: 5, holding: [] }),
    ).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringMatching(/^strength: .*much or slightly/) as unknown,
    });
    expect(
      await labelAt(store, viewers[0]!, queue.id, { itemId: pair.itemId, side: "tie", ms: 5, holding: [] }),
    ).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringMatching(/^comment: .*reason.*tie/) as unknown,
    });
    expect(
      await label(store, one, {
        itemId: pair.itemId,
        side: a,
        strength: "much",
        criteria: { speed: "left" },
        ms: 5,
        holding: [],
      }),
    ).toMatchObject({ ok: false, status: 400, error: 'criteria: this queue has no criterion "speed"' });
    expect(await store.labels.ofQueue(queue.id)).toEqual([]);
    // A much better, correctness to A, clarity to B (as seen: the keys the person pressed).
    const stored = await labelAt(store, viewers[0]!, queue.id, {
      itemId: pair.itemId,
      side: a,
      strength: "much",
      criteria: { correctness: seenA, clarity: b },
      ms: 5,
      holding: [],
    });
    expect(stored).toMatchObject({ ok: true, duplicate: false });
    // The second person: A slightly better on the same pair; a tie with its reason on the other.
    const two = await desk(viewers[1]!, queue.id);
    const theirs = (await nextPair(store, two, []))!;
    expect(theirs.itemId).toBe(pair.itemId);
    const slight = await label(store, two, {
      itemId: pair.itemId,
      side: await keyFor(two, pair.itemId, "a"),
      strength: "slightly",
      ms: 7,
      holding: [],
    });
    expect(slight.ok).toBe(true);
    const other = slight.ok ? slight.next! : null;
    expect(other).not.toBeNull();
    expect(
      (await label(store, two, { itemId: other!.itemId, side: "tie", comment: "same code", ms: 9, holding: [] })).ok,
    ).toBe(true);

    const labels = await store.labels.ofQueue(queue.id);
    expect(labels.map((l) => [l.user, l.itemId, l.choice, l.strength, l.criteria])).toEqual([
      ["grader0", pair.itemId, "a", "much", { correctness: "a", clarity: "b" }],
      ["grader1", pair.itemId, "a", "slightly", null],
      ["grader1", other!.itemId, "tie", null, null],
    ]);
    // Exports: the raw line carries the grade; the majority is the side, its margin the grades summed.
    const line = rawLabelLine(queue, labels[0]!);
    expect(line).toMatchObject({
      choice: "a",
      strength: "much",
      preference: 2,
      criteria: { correctness: "a", clarity: "b" },
      version: 1,
    });
    expect(rawLabelLine(queue, labels[2]!)).toMatchObject({ choice: "tie", strength: null, preference: 0 });
    expect(decisions(labels).find((d) => d.itemId === pair.itemId)).toMatchObject({
      outcome: "a",
      margin: 3,
      labels: 2,
    });
    // Agreement counts the side alone: the two graded A's agree, as two plain A's would.
    const plain = labels.map((l) => ({ ...l, strength: null, criteria: null }));
    expect(agreementReport(labels)).toEqual(agreementReport(plain));
    expect(agreementReport(labels).cohen).toEqual([expect.objectContaining({ shared: 1, observed: 1 })]);
  });

  it("a plain queue refuses a strength; a schema that makes no sense is refused when the queue is made", async () => {
    const queue = await createQueue(store, {
      name: "plain-refuses",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 1,
      members: ["grader0"],
    });
    const d = await desk(viewers[0]!, queue.id);
    const pair = (await nextPair(store, d, []))!;
    expect(
      await labelAt(store, viewers[0]!, queue.id, {
        itemId: pair.itemId,
        side: "left",
        strength: "much",
        ms: 1,
        holding: [],
      }),
    ).toMatchObject({
      ok: false,
      status: 400,
      error: "strength: this queue asks for no strength of preference",
    });
    await expect(
      createQueue(store, {
        name: "nonsense",
        source: { from: "runs", a: runs.a.name, b: runs.b.name },
        overlap: 1,
        labelSchema: { reasonsFor: ["much"] },
      }),
    ).rejects.toThrow(/^labelSchema: reasonsFor: reasons for much \/ slightly better need a graded queue/);
    expect(await store.queues.find("nonsense")).toBeNull();
  });

  it("a reopened label changed becomes its latest version: agreement and exports read it, the old one is kept, slots stay", async () => {
    const queue = await createQueue(store, {
      name: "reopen",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      limit: 3,
      members: ["grader2", "grader3"],
    });
    const [one, two] = [await desk(viewers[2]!, queue.id), await desk(viewers[3]!, queue.id)];
    // One says a on every pair; two says a, b, a (in queue order).
    for (const [d, wants] of [
      [one, ["a", "a", "a"]],
      [two, ["a", "b", "a"]],
    ] as const) {
      for (const want of wants) {
        const pair = (await nextPair(store, d, []))!;
        expect(
          (await label(store, d, { itemId: pair.itemId, side: await keyFor(d, pair.itemId, want), ms: 3, holding: [] }))
            .ok,
        ).toBe(true);
      }
    }
    const before = agreementReport(await store.labels.ofQueue(queue.id));
    expect(before.cohen[0]).toMatchObject({ shared: 3, observed: 2 / 3 });
    // Two reopens the pair they called b, sees it as they saw it, and changes it to a.
    const mine = await history(store, two);
    expect(mine).toHaveLength(3);
    const split = (await store.labels.ofQueue(queue.id)).find((l) => l.userId === two.userId && l.choice === "b")!;
    const opened = (await reopen(store, two, split.itemId))!;
    expect(opened.pair.itemId).toBe(split.itemId);
    expect(opened.label).toMatchObject({ side: split.leftIsA ? "right" : "left", version: 1 });
    const changed = await revise(store, two, {
      itemId: split.itemId,
      side: await keyFor(two, split.itemId, "a"),
      comment: "looked again",
      ms: 4,
    });
    expect(changed).toEqual({ ok: true, version: 2 });
    const after = await store.labels.ofQueue(queue.id);
    expect(after).toHaveLength(6);
    expect(agreementReport(after).cohen[0]).toMatchObject({ shared: 3, observed: 1 });
    expect(
      rawLabelLine(
        queue,
        after.find((l) => l.id === split.id)!,
      ),
    ).toMatchObject({ choice: "a", version: 2, comment: "looked again" });
    // The version it replaced is kept; the pair's slots and labels are exactly what they were.
    expect(
      await db.prisma.labelVersion.findMany({ where: { labelId: split.id }, select: { version: true, choice: true } }),
    ).toEqual([{ version: 1, choice: "b" }]);
    expect((await store.queues.slots(queue.id)).every((s) => s.labelled)).toBe(true);
    expect(await store.labels.progress(queue.id, two.userId)).toMatchObject({ mine: 3, given: 6, wanted: 6, left: 0 });
    // Only one's own labels can be reopened or changed.
    const never = (await store.queues.slots(queue.id))[0]!.itemId;
    const outsider = await desk(viewers[2]!, queue.id);
    expect(
      await revise(
        store,
        { ...outsider, userId: viewers[0]!.kind === "user" ? viewers[0]!.id : 0 },
        { itemId: never, side: "left", ms: 1 },
      ),
    ).toMatchObject({
      ok: false,
      status: 409,
    });
  });

  it("skip keeps a reason and a broken flag; come back later offers the pair after every other", async () => {
    const queue = await createQueue(store, {
      name: "later",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 3,
      members: ["grader0"],
    });
    const d = await desk(viewers[0]!, queue.id);
    const first = (await nextPair(store, d, []))!;
    const put = await later(store, d, first.itemId, [first.itemId]);
    expect(put.deferred).toBe(true);
    const second = put.next!;
    expect(second.itemId).not.toBe(first.itemId);
    // A reload holds nothing: the put-off pair still waits behind the one on screen.
    expect((await nextPair(store, d, []))!.itemId).toBe(second.itemId);
    const afterSecond = await label(store, d, { itemId: second.itemId, side: "left", ms: 1, holding: [] });
    const third = afterSecond.ok ? afterSecond.next! : null;
    expect(third).not.toBeNull();
    expect(third!.itemId).not.toBe(first.itemId);
    // Nothing else is left: the put-off pair comes back.
    const afterThird = await label(store, d, { itemId: third!.itemId, side: "right", ms: 1, holding: [] });
    expect(afterThird.ok && afterThird.next?.itemId).toBe(first.itemId);
    // Now passed on for good, flagged as broken with a reason the lead can read.
    expect(await skip(store, d, first.itemId, [], { reason: "  the answer is cut off  ", broken: true })).toMatchObject(
      {
        skipped: true,
        next: null,
        progress: { left: 0 },
      },
    );
    expect(await store.labels.flags(queue.id)).toEqual([
      { itemId: first.itemId, user: "grader0", broken: true, reason: "the answer is cut off" },
    ]);
    // A pair not held cannot be put off.
    expect((await later(store, d, first.itemId, [])).deferred).toBe(false);
  });
});
