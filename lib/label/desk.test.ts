import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { storeFor, type Store } from "../store";
import { addUser } from "../access/users";
import type { Viewer } from "../access/viewer";
import { createQueue } from "./build";
import { label, labelAt, nextPair, openDesk, skip, undo, type Desk } from "./desk";
import { agreementReport } from "./report";
import { decisions, humanTrainingLines, rawLabelLine, summarize } from "./exports";
import { makeRunPair, type RunPair } from "./testing/run-pair";
import path from "node:path";
import { projectRoot } from "../paths";
import { loadTemplate } from "../sweet/model-template";

// Queues, assignment and labels on both databases: many people at once never label a pair past
// its overlap or twice, leases lapse, undo and skip, gold pairs, and the blinded view.

const { backends, cleanup } = databaseBackends("label");
afterAll(cleanup);

describe.each(backends)("labelling on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  let runs: RunPair;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    runs = await makeRunPair(store, { tasks: 24 });
    for (let i = 0; i < 6; i++) {
      const { user } = await addUser(store, `annotator${i}`, "annotator");
      viewers.push({ kind: "user", id: user.id, name: user.name, role: "annotator" });
    }
    await addUser(store, "outsider", "annotator");
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const desk = async (viewer: Viewer, queueId: number) => {
    const opened = await openDesk(store, viewer, queueId);
    if ("error" in opened) throw new Error(opened.error);
    return opened;
  };

  it("six people at once, four requests each in flight: every pair gets exactly its overlap, no one labels a pair twice", async () => {
    const queue = await createQueue(store, {
      name: "race",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 3,
      members: viewers.map((v) => (v as { name: string }).name),
    });
    expect(queue).toMatchObject({ kind: "trajectory", items: 24, slots: 72, members: 6 });
    const acknowledged: Array<{ user: number; item: number }> = [];
    await Promise.all(
      viewers.flatMap((viewer) =>
        Array.from({ length: 4 }, async () => {
          const d = await desk(viewer, queue.id);
          // Each worker acts as its own tab: it holds nothing the others hold.
          for (;;) {
            const pair = await nextPair(store, d, []);
            if (!pair) break;
            const result = await label(store, d, {
              itemId: pair.itemId,
              side: (["left", "right", "tie", "both_bad"] as const)[pair.itemId % 4]!,
              ms: 1000,
              holding: [],
            });
            if (result.ok && !result.duplicate) acknowledged.push({ user: d.userId, item: pair.itemId });
          }
        }),
      ),
    );
    const labels = await store.labels.ofQueue(queue.id);
    expect(labels).toHaveLength(72);
    expect(acknowledged).toHaveLength(72);
    expect(new Set(labels.map((l) => `${l.itemId}:${l.userId}`))).toEqual(
      new Set(acknowledged.map((a) => `${a.item}:${a.user}`)),
    );
    const perItem = new Map<number, number>();
    for (const l of labels) perItem.set(l.itemId, (perItem.get(l.itemId) ?? 0) + 1);
    expect([...perItem.values()].every((n) => n === 3)).toBe(true);
    expect((await store.queues.slots(queue.id)).every((s) => s.labelled)).toBe(true);
    // The queue's kept count of labelled slots (a trigger) agrees with the slots after the race.
    expect(await store.labels.progress(queue.id, acknowledged[0]!.user)).toMatchObject({ given: 72, wanted: 72 });
    // The report reads the same labels: 24 pairs each labelled by three people.
    const report = agreementReport(labels);
    expect(report).toMatchObject({ labels: 72, items: 24, overlapping: 24 });
    expect(report.annotators.reduce((n, a) => n + a.labels, 0)).toBe(72);
  });

  it("hands out in queue order, resumes what a person holds, lets a lapsed hold go to someone else, and refuses the late label", async () => {
    const queue = await createQueue(store, {
      name: "leases",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 3,
      members: ["annotator0", "annotator1"],
    });
    const first = await desk(viewers[0]!, queue.id);
    const second = await desk(viewers[1]!, queue.id);
    const held = (await nextPair(store, first, []))!;
    // A reload (the page holds nothing) gets the same pair back; holding it gets the next one.
    expect((await nextPair(store, first, []))!.itemId).toBe(held.itemId);
    const ahead = (await nextPair(store, first, [held.itemId]))!;
    expect(ahead.itemId).not.toBe(held.itemId);
    const theirs = (await nextPair(store, second, []))!;
    expect([held.itemId, ahead.itemId]).not.toContain(theirs.itemId);
    expect(await nextPair(store, second, [theirs.itemId])).toBeNull();
    // The first person's tab is abandoned: their holds lapse, and the second person gets one.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "QueueSlot" SET "leaseUntil" = now() - interval '1 day' WHERE "userId" = ${first.userId}`,
    );
    const taken = (await nextPair(store, second, [theirs.itemId]))!;
    expect([held.itemId, ahead.itemId]).toContain(taken.itemId);
    const late = await label(store, first, { itemId: taken.itemId, side: "left", ms: 5, holding: [] });
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect((await label(store, second, { itemId: taken.itemId, side: "left", ms: 5, holding: [] })).ok).toBe(true);
    // An outsider is not a member.
    const outsider = (await store.users.list()).find((u) => u.name === "outsider")!;
    expect(
      await openDesk(store, { kind: "user", id: outsider.id, name: "outsider", role: "annotator" }, queue.id),
    ).toEqual({ status: 403, error: "you are not a member of this queue" });
  });

  it("records the side shown on the left and maps the key to a or b; undo gives the pair back; skip passes it on", async () => {
    const queue = await createQueue(store, {
      name: "undo",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 2,
      members: ["annotator2", "annotator3"],
    });
    const d = await desk(viewers[2]!, queue.id);
    const pair = (await nextPair(store, d, []))!;
    const result = await label(store, d, {
      itemId: pair.itemId,
      side: "left",
      comment: "  clearer  ",
      ms: 1234,
      holding: [],
    });
    expect(result).toMatchObject({ ok: true, duplicate: false, progress: { mine: 1, given: 1, wanted: 2 } });
    // Sending the same label again stores nothing more; another side is no change either, and the answer says which is kept.
    expect(await label(store, d, { itemId: pair.itemId, side: "left", ms: 1, holding: [] })).toMatchObject({
      ok: true,
      duplicate: true,
      kept: { side: "left" },
    });
    expect(await label(store, d, { itemId: pair.itemId, side: "both_bad", ms: 1, holding: [] })).toMatchObject({
      ok: true,
      duplicate: true,
      kept: { side: "left" },
    });
    const [stored] = await store.labels.ofQueue(queue.id);
    expect(stored).toMatchObject({ comment: "clearer", ms: 1234, choice: stored!.leftIsA ? "a" : "b" });
    const undone = await undo(store, d);
    expect(undone.pair?.itemId).toBe(pair.itemId);
    expect(undone.progress).toMatchObject({ mine: 0, given: 0 });
    expect(await store.labels.ofQueue(queue.id)).toEqual([]);
    expect((await undo(store, d)).pair).toBeNull();
    // Labelled again after the undo, the other way.
    expect((await label(store, d, { itemId: pair.itemId, side: "right", ms: 10, holding: [] })).ok).toBe(true);
    expect((await store.labels.ofQueue(queue.id))[0]!.choice).toBe(stored!.leftIsA ? "b" : "a");
    // Skipping: never offered to this person again; the other member gets it.
    const other = (await nextPair(store, d, []))!;
    const skipped = await skip(store, d, other.itemId, []);
    // The answer's progress leaves the skipped pair out of what is left for this person.
    expect(skipped).toMatchObject({ skipped: true, next: null, progress: { left: 0 } });
    expect(await label(store, d, { itemId: other.itemId, side: "left", ms: 1, holding: [] })).toMatchObject({
      ok: false,
    });
    const e = await desk(viewers[3]!, queue.id);
    expect((await nextPair(store, e, []))!.itemId).toBe(other.itemId);
  });

  it("refuses (409) a label sent to one queue for another queue's pair, labelled there or not, and writes nothing", async () => {
    const members = ["annotator4", "annotator5"];
    const first = await createQueue(store, {
      name: "own",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 2,
      members,
    });
    const second = await createQueue(store, {
      name: "elsewhere",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 2,
      members,
    });
    const there = await desk(viewers[4]!, second.id);
    const theirs = (await nextPair(store, there, []))!;
    expect(await label(store, there, { itemId: theirs.itemId, side: "right", ms: 5, holding: [] })).toMatchObject({
      ok: true,
      duplicate: false,
    });
    const unlabelled = (await nextPair(store, there, [theirs.itemId]))!;
    const here = await desk(viewers[4]!, first.id);
    const before = {
      first: await store.labels.ofQueue(first.id),
      second: await store.labels.ofQueue(second.id),
      slots: await store.queues.slots(first.id),
    };
    for (const itemId of [theirs.itemId, unlabelled.itemId]) {
      const refused = await label(store, here, { itemId, side: "left", ms: 1, holding: [] });
      expect(refused).toEqual({
        ok: false,
        status: 409,
        error: `pair ${itemId} is not a pair of this queue: nothing was stored`,
      });
    }
    expect(await store.labels.ofQueue(first.id)).toEqual(before.first);
    expect(await store.labels.ofQueue(second.id)).toEqual(before.second);
    expect(await store.queues.slots(first.id)).toEqual(before.slots);
  });

  it("a key press checks the person's right to the queue in its own statement: outsiders, removed members and missing queues get nothing written", async () => {
    const queue = await createQueue(store, {
      name: "gate",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      limit: 6,
      showsHidden: true,
      members: ["annotator2", "annotator3"],
    });
    const member = viewers[2]!;
    const d = await desk(member, queue.id);
    const first = (await nextPair(store, d, []))!;
    // The same answer as the desk's own way: stored, the next pair (hidden information shown, as the queue says), progress.
    const pressed = await labelAt(store, member, queue.id, { itemId: first.itemId, side: "left", ms: 10, holding: [] });
    expect(pressed).toMatchObject({ ok: true, duplicate: false, progress: { mine: 1, given: 1, wanted: 12 } });
    const next = pressed.ok ? pressed.next! : null;
    expect(runs.secrets.some((secret) => JSON.stringify(next).includes(secret))).toBe(true);
    expect(
      await labelAt(store, member, queue.id, { itemId: first.itemId, side: "right", ms: 10, holding: [] }),
    ).toMatchObject({ ok: true, duplicate: true, kept: { side: "left" } });
    const outsider = (await store.users.list()).find((u) => u.name === "outsider")!;
    const outsiderViewer: Viewer = { kind: "user", id: outsider.id, name: outsider.name, role: "annotator" };
    // Every row a key press may write: labels, slots with their holds' ends, and who was handed which pair.
    const written = async () => ({
      labels: await store.labels.ofQueue(queue.id),
      slots: await db.prisma.queueSlot.findMany({ where: { queueId: queue.id }, orderBy: { id: "asc" } }),
      assignments: await db.prisma.assignment.findMany({
        where: { item: { queueId: queue.id } },
        orderBy: [{ itemId: "asc" }, { userId: "asc" }],
      }),
    });
    const before = await written();
    expect(
      await labelAt(store, outsiderViewer, queue.id, { itemId: next!.itemId, side: "left", ms: 1, holding: [] }),
    ).toEqual({ ok: false, status: 403, error: "you are not a member of this queue" });
    expect(await labelAt(store, member, 987654, { itemId: next!.itemId, side: "left", ms: 1, holding: [] })).toEqual({
      ok: false,
      status: 404,
      error: "no queue 987654",
    });
    // Taken off the queue while holding a pair: the held pair can no longer be labelled, nor a new one claimed.
    await db.prisma.queueMember.deleteMany({ where: { queueId: queue.id, userId: (member as { id: number }).id } });
    expect(await labelAt(store, member, queue.id, { itemId: next!.itemId, side: "left", ms: 1, holding: [] })).toEqual({
      ok: false,
      status: 403,
      error: "you are not a member of this queue",
    });
    // Sent again for the pair labelled before (the page holding the next one): no hold renewed, no pair claimed.
    expect(
      await labelAt(store, member, queue.id, { itemId: first.itemId, side: "left", ms: 1, holding: [next!.itemId] }),
    ).toEqual({ ok: false, status: 403, error: "you are not a member of this queue" });
    expect(await written()).toEqual(before);
    // A researcher may label any queue (policy.mayLabel) and is handed pairs without being a member.
    const { user } = await addUser(store, "researcher-at-gate", "researcher");
    const researcher: Viewer = { kind: "user", id: user.id, name: user.name, role: "researcher" };
    const theirs = (await nextPair(store, await desk(researcher, queue.id), []))!;
    expect(
      await labelAt(store, researcher, queue.id, { itemId: theirs.itemId, side: "tie", ms: 3, holding: [] }),
    ).toMatchObject({ ok: true, duplicate: false, progress: { mine: 1, given: 2 } });
  });

  it("a key press at a queue with gold pairs takes the desk's way: the label stored once, gold pairs still mixed in", async () => {
    const queue = await createQueue(store, {
      name: "gold-press",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      gold: 2,
      goldRate: 0.5,
      goldGap: 0.5,
      members: ["annotator1"],
    });
    const viewer = viewers[1]!;
    const pair = (await nextPair(store, await desk(viewer, queue.id), []))!;
    const pressed = await labelAt(store, viewer, queue.id, { itemId: pair.itemId, side: "right", ms: 7, holding: [] });
    expect(pressed).toMatchObject({ ok: true, duplicate: false });
    expect((await store.labels.ofQueue(queue.id)).filter((l) => l.itemId === pair.itemId)).toHaveLength(1);
    expect(pressed.ok && pressed.next).toBeTruthy();
  });

  it("mixes gold pairs in at the queue's rate, for every member once, and scores each person on them", async () => {
    const queue = await createQueue(store, {
      name: "gold",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      gold: 4,
      goldRate: 0.5,
      goldGap: 0.5,
      members: ["annotator4", "annotator5"],
    });
    expect(queue).toMatchObject({ items: 24, gold: 4, slots: 20 });
    for (const viewer of [viewers[4]!, viewers[5]!]) {
      // The coin always says gold, while any is left.
      const d: Desk = { ...(await desk(viewer, queue.id)), random: () => 0 };
      let golds = 0;
      for (let i = 0; i < 6; i++) {
        const pair = (await nextPair(store, d, []))!;
        await label(store, d, { itemId: pair.itemId, side: "left", ms: 100, holding: [] });
        golds += (await store.queues.item(pair.itemId))!.gold ? 1 : 0;
      }
      expect(golds).toBe(4);
    }
    const report = agreementReport(await store.labels.ofQueue(queue.id));
    for (const a of report.annotators) expect(a.gold.labelled).toBe(4);
    // Gold pairs take no slots: 20 wanted, 4 given (two non-gold labels each).
    expect(await store.labels.progress(queue.id, viewers[4]!.kind === "user" ? viewers[4]!.id : 0)).toMatchObject({
      mine: 6,
      given: 4,
      wanted: 20,
    });
  });

  it("shows a member only what the agent saw unless the queue shows hidden information", async () => {
    const blind = await createQueue(store, {
      name: "blind",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      members: ["annotator0"],
    });
    const open = await createQueue(store, {
      name: "open",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      showsHidden: true,
      members: ["annotator0"],
    });
    const text = async (queueId: number) => {
      const d = await desk(viewers[0]!, queueId);
      const pairs: Array<Awaited<ReturnType<typeof nextPair>>> = [];
      for (let i = 0; i < 5; i++)
        pairs.push(
          await nextPair(
            store,
            d,
            pairs.map((p) => p!.itemId),
          ),
        );
      return JSON.stringify(pairs);
    };
    const blinded = await text(blind.id);
    expect(blinded).toContain("task");
    expect(runs.secrets.filter((s) => blinded.includes(s))).toEqual([]);
    // No run or model name, nor the benchmark's pick.
    expect(blinded).not.toContain("model-a");
    expect(blinded).not.toMatch(/"(sourceChoice|gold|leftIsA|reward)"/);
    const shown = await text(open.id);
    expect(runs.secrets.filter((s) => shown.includes(s)).length).toBeGreaterThan(0);
  });

  it("a queue made to hide automatic scores sends no pass/fail in any desk answer; a normal queue still does", async () => {
    const quiet = await createQueue(store, {
      name: "no-scores",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 4,
      hidesScores: true,
      members: ["annotator1"],
    });
    const loud = await createQueue(store, {
      name: "scores",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 1,
      limit: 4,
      members: ["annotator1"],
    });
    expect((await store.queues.find(quiet.id))!.hidesScores).toBe(true);
    expect((await store.queues.find(loud.id))!.hidesScores).toBe(false);
    const viewer = viewers[1]!;
    // What the desk's routes answer: next (the desk's way), a key press (the one statement), undo.
    const answers = async (queueId: number) => {
      const d = await desk(viewer, queueId);
      const first = (await nextPair(store, d, []))!;
      const pressed = await labelAt(store, viewer, queueId, { itemId: first.itemId, side: "left", ms: 1, holding: [] });
      const byDesk = await label(store, d, {
        itemId: pressed.ok ? pressed.next!.itemId : 0,
        side: "tie",
        ms: 1,
        holding: [],
      });
      const undone = await undo(store, d);
      return [first, pressed, byDesk, undone].map((a) => JSON.stringify(a));
    };
    for (const text of await answers(quiet.id)) expect(text).not.toMatch(/"(passed|tests|reward)"/);
    for (const text of await answers(loud.id)) expect(text).toMatch(/"passed":(true|false)/);
  });

  it("exports decided pairs and raw labels; ties, both-bad and splits are counted, not exported", async () => {
    const queue = await createQueue(store, {
      name: "export",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      limit: 4,
      members: ["annotator0", "annotator1"],
    });
    // Per pair in queue order, what each of the two people decides: a, a / tie, tie / both bad, both bad / a, tie.
    const plan = [
      ["a", "a"],
      ["tie", "tie"],
      ["both_bad", "both_bad"],
      ["a", "tie"],
    ] as const;
    for (const [who, viewer] of [viewers[0]!, viewers[1]!].entries()) {
      const d = await desk(viewer, queue.id);
      for (const [i, choices] of plan.entries()) {
        const pair = (await nextPair(store, d, []))!;
        const held = (await store.labels.open(queue.id, d.userId, 60_000)).find((x) => x.itemId === pair.itemId)!;
        const choice = choices[who]!;
        // "a" is on the left for this person when leftIsA.
        const side = choice === "a" ? (held.leftIsA ? "left" : "right") : choice;
        expect((await label(store, d, { itemId: pair.itemId, side, ms: 10 * (i + 1), holding: [] })).ok).toBe(true);
      }
    }
    const labels = await store.labels.ofQueue(queue.id);
    expect(summarize(decisions(labels))).toEqual({
      pairs: 4,
      exported: 1,
      tie: 1,
      both_bad: 1,
      split: 1,
      adjudicated: 0,
    });
    const row = (await store.queues.find(queue.id))!;
    const { lines, summary } = await humanTrainingLines(store, row, "openrlhf-critic");
    expect(summary.exported).toBe(1);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!)).toEqual(["chosen", "rejected"]);
    await expect(humanTrainingLines(store, row, "trl-dpo")).rejects.toThrow(/trajectory pairs/);
    const raw = rawLabelLine(row, labels[0]!);
    expect(raw).toMatchObject({
      queue: "export",
      kind: "trajectory",
      annotator: expect.stringMatching(/^annotator/) as unknown,
      a: { run: runs.a.id },
      b: { run: runs.b.id },
    });
  });

  it("makes turn pairs from critic-ranked candidates and from drawn turn pairs: the dialogue so far, both candidates, where they part", async () => {
    const states = await store.sweet.states(runs.a.id);
    expect(states.length).toBeGreaterThan(0);
    const scores = [];
    for (const state of states.slice(0, 4)) {
      const texts = [
        state.output,
        "Shall I return x times the task number? I WANT TO ANSWER",
        "Shall I return x plus one?",
      ];
      await store.sweet.insertCandidates(
        state.turnId,
        texts.map((text, index) => ({ index, text, policyModel: "p", policyMean: -1, policySum: -3 })),
      );
      for (const c of await store.sweet.ofTurn(state.turnId))
        scores.push({ id: c.id, turnId: state.turnId, index: c.index, criticScore: -c.index, advantage: 1 - c.index });
    }
    await store.sweet.score("critic", scores);
    const queue = await createQueue(store, {
      name: "turns",
      source: { from: "candidates", run: runs.a.name },
      overlap: 1,
      members: ["annotator1"],
    });
    expect(queue).toMatchObject({ kind: "turn", items: 4 });
    const d = await desk(viewers[1]!, queue.id);
    const pair = (await nextPair(store, d, []))!;
    expect(pair.kind).toBe("turn");
    expect(pair.left).toBeUndefined();
    const turn = pair.turn!;
    // The context is the dialogue before the agent's turn; the sides are the best (index 1) and worst (index 2)
    // of the sampled candidates: the turn's own output (index 0, ranked best) is not in turn pairs' pool.
    expect(turn.context.map((t) => t.index)).toEqual(Array.from({ length: turn.index }, (_, i) => i));
    expect(new Set([turn.left, turn.right])).toEqual(
      new Set(["Shall I return x times the task number? I WANT TO ANSWER", "Shall I return x plus one?"]),
    );
    expect(turn.left.slice(0, turn.span.prefix)).toBe(turn.right.slice(0, turn.span.prefix));
    const labels = await label(store, d, { itemId: pair.itemId, side: "left", ms: 5, holding: [] });
    expect(labels.ok).toBe(true);
    const [stored] = await store.labels.ofQueue(queue.id);
    // The critic preferred candidate 1; the report counts agreement with it.
    expect(stored!.item.sourceChoice).toMatch(/^[ab]$/);
    expect(agreementReport([stored!]).source.labelled).toBe(1);
    const row = (await store.queues.find(queue.id))!;
    expect((await humanTrainingLines(store, row, "openrlhf-policy")).summary).toMatchObject({ pairs: 1 });
    // The prompts are written in the run's recorded template, as its own SWEET-RL exports are; another is refused.
    const dated = await loadTemplate(
      path.join(projectRoot, "lib", "sweet", "fixtures", "chat-templates", "dated-header"),
      { date: "2026-03-07" },
    );
    await store.sweet.recordTemplate(runs.a.id, dated.recorded as unknown as Record<string, unknown>);
    const [line] = (await humanTrainingLines(store, row, "trl-dpo")).lines;
    expect(line!.prompt).toContain("Current date: 07 Mar 2026");
    expect(line!.chosen).toMatch(/<\|eot_id\|>$/);
    await expect(humanTrainingLines(store, row, "trl-dpo", { template: "chatml" })).rejects.toThrow(/would mix two/);
    // With the turn's own output in the pool (as turn-pairs --include-own), it is the best side.
    const own = await createQueue(store, {
      name: "turns-own",
      source: { from: "candidates", run: runs.a.name, pool: "samples+own" },
      overlap: 1,
    });
    const ownItems = await db.prisma.queueItem.findMany({ where: { queueId: own.id } });
    const ownIds = new Set(scores.filter((c) => c.index === 0).map((c) => c.id));
    expect(ownItems.filter((i) => ownIds.has(i.aCandidateId!) || ownIds.has(i.bCandidateId!))).toHaveLength(4);
    // A run's drawn turn pairs make a queue too.
    await store.sweet.replacePairs(
      runs.a.id,
      "turn",
      "critic",
      [{ chosenId: scores[0]!.id, rejectedId: scores[2]!.id }],
      {},
    );
    expect(
      await createQueue(store, {
        name: "drawn",
        source: { from: "pairs", run: runs.a.name, kind: "turn" },
        overlap: 2,
      }),
    ).toMatchObject({ kind: "turn", items: 1, slots: 2 });
  });

  it("says how many pairs are left for each person, as the slots and assignments in the database count them", async () => {
    const queue = await createQueue(store, {
      name: "left",
      source: { from: "runs", a: runs.a.name, b: runs.b.name },
      overlap: 2,
      limit: 4,
      members: ["annotator0", "annotator1", "annotator2"],
    });
    // Counted here from the rows themselves: pairs the person holds unlabelled, and pairs never shown
    // to them with an unlabelled slot that nobody holds (or whose hold ran out).
    const counted = async (userId: number) => {
      const slots = await db.prisma.queueSlot.findMany({ where: { queueId: queue.id } });
      const shown = new Set(
        (await db.prisma.assignment.findMany({ where: { userId, item: { queueId: queue.id } } })).map((a) => a.itemId),
      );
      const open = slots.filter(
        (s) =>
          !s.labelled &&
          (s.userId === userId ||
            ((s.userId === null || s.leaseUntil!.getTime() < Date.now()) && !shown.has(s.itemId))),
      );
      return new Set(open.map((s) => s.itemId)).size;
    };
    const [zero, one, two] = [
      await desk(viewers[0]!, queue.id),
      await desk(viewers[1]!, queue.id),
      await desk(viewers[2]!, queue.id),
    ];
    expect((await store.labels.progress(queue.id, zero.userId)).left).toBe(4);

    const first = (await nextPair(store, zero, []))!;
    const pressed = await label(store, zero, { itemId: first.itemId, side: "left", ms: 1, holding: [] });
    expect(pressed.ok && pressed.progress.left).toBe(await counted(zero.userId));
    expect(pressed.ok && pressed.progress.left).toBe(3);
    // The one-statement key press says the same.
    const second = (await nextPair(store, zero, []))!;
    const atDesk = await labelAt(store, viewers[0]!, queue.id, {
      itemId: second.itemId,
      side: "tie",
      ms: 1,
      holding: [],
    });
    expect(atDesk.ok && atDesk.progress.left).toBe(await counted(zero.userId));
    expect(atDesk.ok && atDesk.progress.left).toBe(2);

    // The pairs the first person labelled keep a second slot, so all four are left for the second
    // person; they hold one and skip another (never offered to them again, free for the rest).
    expect((await store.labels.progress(queue.id, one.userId)).left).toBe(4);
    const a = (await nextPair(store, one, []))!;
    const b = (await nextPair(store, one, [a.itemId]))!;
    await skip(store, one, b.itemId, [a.itemId]);
    for (const d of [zero, one, two])
      expect((await store.labels.progress(queue.id, d.userId)).left).toBe(await counted(d.userId));
    // A third person whose hold lapses: the pair is left again for whoever has not been shown it.
    const c = (await nextPair(store, two, []))!;
    await db.prisma.$executeRawUnsafe(
      `UPDATE "QueueSlot" SET "leaseUntil" = now() - interval '1 day' WHERE "userId" = ${two.userId} AND "itemId" = ${c.itemId}`,
    );
    for (const d of [zero, one, two])
      expect((await store.labels.progress(queue.id, d.userId)).left).toBe(await counted(d.userId));

    // Labelling on until the desk has nothing more: "left" reaches 0 exactly then.
    for (;;) {
      const before = (await store.labels.progress(queue.id, zero.userId)).left;
      const pair = await nextPair(store, zero, []);
      if (!pair) {
        expect(before).toBe(0);
        break;
      }
      expect(before).toBeGreaterThan(0);
      const done = await label(store, zero, { itemId: pair.itemId, side: "right", ms: 1, holding: [] });
      expect(done.ok && done.progress.left).toBe(await counted(zero.userId));
    }
  });

  it("names the field of bad settings, and labels go with a deleted run", async () => {
    await expect(
      createQueue(store, { name: "x", source: { from: "runs", a: runs.a.name, b: "nope" }, overlap: 1 }),
    ).rejects.toThrow(/^source\.b: no run named "nope"/);
    await expect(
      createQueue(store, { name: "x", source: { from: "runs", a: runs.a.name, b: runs.b.name }, overlap: 0 }),
    ).rejects.toThrow(/^overlap: /);
    await expect(
      createQueue(store, {
        name: "x",
        source: { from: "runs", a: runs.a.name, b: runs.b.name },
        overlap: 1,
        members: ["ghost"],
      }),
    ).rejects.toThrow(/^members: no user named "ghost"/);
    await expect(
      createQueue(store, { name: "race", source: { from: "runs", a: runs.a.name, b: runs.b.name }, overlap: 1 }),
    ).rejects.toThrow(/^name: a queue named "race" exists already/);
    await expect(
      createQueue(store, { name: "x", source: { from: "pairs", run: runs.a.name, kind: "trajectory" }, overlap: 1 }),
    ).rejects.toThrow(/^source: run .* has no trajectory pairs/);
    const before = (await store.labels.ofQueue((await store.queues.find("race"))!.id)).length;
    expect(before).toBe(72);
    // As `colbench runs delete` and the studio delete it.
    await store.runs.delete(runs.b.id);
    const race = (await store.queues.find("race"))!;
    expect(await store.labels.ofQueue(race.id)).toEqual([]);
    expect(await store.labels.runVotes()).toEqual([]);
    // Its pairs and their slots went too, and the queue's kept counts with them.
    expect(race.wanted).toBe(0);
    expect(await store.labels.progress(race.id, (await store.users.list())[0]!.id)).toMatchObject({
      given: 0,
      wanted: 0,
    });
  });
});
