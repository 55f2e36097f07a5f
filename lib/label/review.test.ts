import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import type { Side } from "../store/labels";
import { createQueue } from "./build";
import { label, nextPair, openDesk, type Desk } from "./desk";
import { decisions, rawLabelLine, summarize } from "./exports";
import { agreementReport } from "./report";
import { adjudicate, reviewBoard, reviewOne } from "./review";
import { makeRunPair, type RunPair } from "./testing/run-pair";

// Review and adjudication change what the exports say, and only that: a rejected label counts in
// no majority, an adjudicated pair takes the reviewer's choice (and says so); agreement stays the
// people's own. Only the queue's reviewers (and researchers, admins) may do either.

const { backends, cleanup } = databaseBackends("label-review");
afterAll(cleanup);

describe.each(backends)("review and adjudication on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const people: Viewer[] = [];

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 2, prefix: "review" });
    for (const name of ["rev0", "rev1", "checker"]) {
      const { user } = await addUser(store, name, "annotator");
      people.push({ kind: "user", id: user.id, name: user.name, role: "annotator" });
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
  const keyFor = async (d: Desk, itemId: number, want: "a" | "b"): Promise<Side> => {
    const { leftIsA } = await db.prisma.assignment.findUniqueOrThrow({
      where: { itemId_userId: { itemId, userId: d.userId } },
    });
    return (want === "a") === leftIsA ? "left" : "right";
  };

  it("a rejected label counts in no majority; an adjudicated split takes the reviewer's choice; agreement is unchanged", async () => {
    const made = await createQueue(store, {
      name: "reviewed",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      members: ["rev0", "rev1"],
    });
    // In queue order: rev0 says a, a; rev1 says b, a. The first pair is split.
    for (const [viewer, wants] of [
      [people[0]!, ["a", "a"]],
      [people[1]!, ["b", "a"]],
    ] as const) {
      const d = await desk(viewer, made.id);
      for (const want of wants) {
        const pair = (await nextPair(store, d, []))!;
        expect(
          (await label(store, d, { itemId: pair.itemId, side: await keyFor(d, pair.itemId, want), ms: 1, holding: [] }))
            .ok,
        ).toBe(true);
      }
    }
    const labels = await store.labels.ofQueue(made.id);
    const [split, agreed] = [...new Set(labels.map((l) => l.itemId))].sort((x, y) => x - y) as [number, number];
    expect(decisions(labels).map((d) => [d.itemId, d.outcome])).toEqual([
      [split, "split"],
      [agreed, "a"],
    ]);
    const before = agreementReport(labels);
    let queue = (await store.queues.find(made.id))!;

    // An annotator who does not review the queue may do neither.
    const checker = people[2]!;
    expect(await adjudicate(store, checker, queue, { itemId: split, choice: "b" })).toMatchObject({
      ok: false,
      status: 403,
    });
    await store.labels.addReviewers(made.id, [checker.kind === "user" ? checker.id : 0]);
    queue = (await store.queues.find(made.id))!;
    expect(queue.reviewerIds).toHaveLength(1);

    // The checker decides the split pair b, and rejects rev1's label on the other.
    expect(
      await adjudicate(store, checker, queue, { itemId: split, choice: "b", reason: "  B's code runs  " }),
    ).toEqual({ ok: true });
    const rev1OnAgreed = labels.find((l) => l.itemId === agreed && l.user === "rev1")!;
    expect(
      await reviewOne(store, checker, queue, {
        labelId: rev1OnAgreed.id,
        verdict: "rejected",
        note: "answered too fast",
      }),
    ).toEqual({ ok: true });
    expect(await reviewOne(store, checker, queue, { labelId: 999_999, verdict: "accepted" })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await adjudicate(store, checker, queue, { itemId: 999_999, choice: "a" })).toMatchObject({
      ok: false,
      status: 404,
    });

    const after = await store.labels.ofQueue(made.id);
    const adjudications = await store.labels.adjudications(made.id);
    expect(adjudications).toEqual([
      expect.objectContaining({ itemId: split, choice: "b", user: "checker", reason: "B's code runs" }),
    ]);
    const decided = decisions(after, adjudications);
    expect(decided.map((d) => [d.itemId, d.outcome, d.decidedBy, d.labels])).toEqual([
      [split, "b", "adjudication", 2],
      [agreed, "a", "majority", 1],
    ]);
    expect(summarize(decided)).toMatchObject({ pairs: 2, exported: 2, split: 0, adjudicated: 1 });
    expect(
      rawLabelLine(
        queue,
        after.find((l) => l.id === rev1OnAgreed.id)!,
      ),
    ).toMatchObject({ review: "rejected" });
    // Agreement is the people's own: unchanged by review.
    expect(agreementReport(after).cohen).toEqual(before.cohen);
    expect(agreementReport(after).alpha).toEqual(before.alpha);

    // The board lists the split pair first, with its decision.
    const board = await reviewBoard(store, queue);
    expect(board.map((b) => [b.itemId, b.outcome, b.decidedBy])).toEqual([
      [split, "b", "adjudication"],
      [agreed, "a", "majority"],
    ]);
    expect((await reviewBoard(store, queue, { only: "unreviewed" })).map((b) => b.itemId)).toEqual([split, agreed]);
    // Every label of a pair rejected, nothing decided: the pair has no outcome, and is still on the board.
    const rev0OnAgreed = after.find((l) => l.itemId === agreed && l.user === "rev0")!;
    await reviewOne(store, checker, queue, { labelId: rev0OnAgreed.id, verdict: "rejected" });
    expect(decisions(await store.labels.ofQueue(made.id), adjudications).map((d) => d.itemId)).toEqual([split]);
    expect((await reviewBoard(store, queue)).find((b) => b.itemId === agreed)).toMatchObject({ outcome: "none" });
    await reviewOne(store, checker, queue, { labelId: rev0OnAgreed.id, verdict: "accepted" });
    // Taking the rejection back: the pair's majority counts both labels again.
    await reviewOne(store, checker, queue, { labelId: rev1OnAgreed.id, verdict: null });
    expect(
      decisions(await store.labels.ofQueue(made.id), adjudications).find((d) => d.itemId === agreed),
    ).toMatchObject({ outcome: "a", labels: 2 });
  });
});
