import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { ClaimLost } from "./episodes";
import { storeFor, type Store } from ".";

// The fencing token: two owners race their writes for one episode, one of them paused past its
// lease and taken over. Whatever the order, the later claim wins: the earlier owner's writes change
// nothing and raise ClaimLost, and nothing the winner wrote is overwritten or failed.

const { backends, cleanup } = databaseBackends("fence");
afterAll(cleanup);

const samples = path.join(projectRoot, "samples", "backend.jsonl");
const lapse = () => new Promise((resolve) => setTimeout(resolve, 25));
const turn = (index: number, content: string) => ({
  index,
  role: index % 2 ? ("agent" as const) : ("simulator" as const),
  content,
});

async function episodes(store: Store, name: string, n: number): Promise<number[]> {
  await store.tasks.import({ file: samples, benchmark: "backend", name: `fence-${name}` });
  const taskIds = (await store.tasks.list({ benchmark: "backend", pageSize: 200 })).items.map((t) => t.id);
  const run = await store.runs.insert({
    name,
    benchmark: "backend",
    config: { benchmark: "backend", selector: "all", taskIds, bestOf: 1 } as never,
  });
  await store.episodes.ensure(run.id, taskIds, 1);
  return (await store.episodes.unfinished(run.id)).map((e) => e.id).slice(0, n);
}

/** Claims `id` for A with a lease that lapses at once, then for B: B holds the later claim. */
async function takenOver(store: Store, id: number): Promise<{ a: number; b: number }> {
  const a = (await store.episodes.claim(id, "owner-a", 1))!;
  expect(a).not.toBeNull();
  await lapse();
  const b = (await store.episodes.claim(id, "owner-b", 60_000))!;
  expect(b).toBeGreaterThan(a);
  return { a, b };
}

const lost = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(ClaimLost);

describe.each(backends)("the claim fence on $label", (backend) => {
  let db: Database;
  let store: Store;
  let ids: number[];

  it("opens", async () => {
    db = await backend.open();
    store = storeFor(db.prisma);
    ids = await episodes(store, "fence", 8);
    expect(ids).toHaveLength(8);
  }, 120_000);
  afterAll(() => db?.close());

  it("a takeover between the loser's read and its write: the loser's turn is refused, the winner's stands", async () => {
    const id = ids[0]!;
    const a = (await store.episodes.claim(id, "owner-a", 1))!;
    await store.episodes.appendTurn(id, turn(0, "task"), a);
    // A reads the dialogue to take its next step ...
    expect(await store.episodes.turns(id)).toHaveLength(1);
    await lapse();
    // ... B takes over, reads the same, and stores the next turn first.
    const b = (await store.episodes.claim(id, "owner-b", 60_000))!;
    await store.episodes.appendTurn(id, turn(1, "winner's question"), b);
    await lost(store.episodes.appendTurn(id, turn(1, "loser's question"), a));
    await lost(store.episodes.appendTurn(id, turn(2, "loser's next"), a));
    await lost(store.episodes.fail(id, { message: "the loser thinks it failed" }, a));
    expect(await store.episodes.renewClaims([{ episodeId: id, claim: a }], 60_000)).toEqual(new Set());
    expect(await store.episodes.renewClaims([{ episodeId: id, claim: b }], 60_000)).toEqual(new Set([id]));
    await store.episodes.appendTurn(id, turn(2, "winner's answer"), b);
    await store.episodes.finish(id, { answer: "b", reward: 1, details: null }, b);
    expect((await store.episodes.turns(id)).map((t) => t.content)).toEqual([
      "task",
      "winner's question",
      "winner's answer",
    ]);
    expect(await store.episodes.ref(id)).toMatchObject({ status: "done", reward: 1 });
  });

  it("the loser writes after the takeover but before the winner: refused, and the winner's write of that index goes in", async () => {
    const id = ids[1]!;
    const { a, b } = await takenOver(store, id);
    await lost(store.episodes.appendTurn(id, turn(0, "loser"), a));
    await store.episodes.appendTurn(id, turn(0, "winner"), b);
    expect((await store.episodes.turns(id)).map((t) => t.content)).toEqual(["winner"]);
  });

  it("late writes after the winner finished: no turn, no finish, no failure, no renewal", async () => {
    const id = ids[2]!;
    const { a, b } = await takenOver(store, id);
    await store.episodes.appendTurn(id, turn(0, "winner"), b);
    await store.episodes.finish(id, { answer: "right", reward: 0.75, details: { by: "b" } }, b);
    await lost(store.episodes.appendTurn(id, turn(1, "late"), a));
    await lost(store.episodes.finish(id, { answer: "wrong", reward: 0, details: { by: "a" } }, a));
    await lost(store.episodes.fail(id, { message: "late failure" }, a));
    // Not even the winner's own token writes to a finished episode.
    await lost(store.episodes.fail(id, { message: "after the end" }, b));
    await lost(store.episodes.releaseClaim(id, a));
    expect(
      await store.episodes.renewClaims(
        [
          { episodeId: id, claim: a },
          { episodeId: id, claim: b },
        ],
        60_000,
      ),
    ).toEqual(new Set());
    const row = await db.prisma.episode.findUniqueOrThrow({ where: { id }, include: { turns: true } });
    expect(row).toMatchObject({ status: "done", answer: "right", reward: 0.75, details: { by: "b" } });
    expect(row.turns.map((t) => t.content)).toEqual(["winner"]);
  });

  it("a late failure from the loser while the winner plays: the episode stays the winner's, running", async () => {
    const id = ids[3]!;
    const { a, b } = await takenOver(store, id);
    await lost(store.episodes.fail(id, { message: "loser gives up" }, a));
    await lost(store.episodes.finish(id, { answer: "x", reward: 0, details: null }, a));
    expect(await store.episodes.claims([id])).toEqual([
      expect.objectContaining({ status: "running", claimedBy: "owner-b" }),
    ]);
    await store.episodes.appendTurn(id, turn(0, "winner"), b);
    await store.episodes.finish(id, { answer: "y", reward: 1, details: null }, b);
    expect(await store.episodes.ref(id)).toMatchObject({ status: "done", reward: 1 });
  });

  it("writes racing the takeover in one moment: the turns stay whole and the later claim never loses a write", async () => {
    // On PostgreSQL the two go down separate connections at once; either the loser's insert commits
    // before the takeover (the winner then reads it) or it is refused, never a gap or a clash.
    const second = backend.label === "postgresql" ? await openDatabase({ url: db.url!, migrate: false }) : null;
    const other = second ? storeFor(second.prisma) : store;
    try {
      for (const id of ids.slice(4)) {
        let claim = (await store.episodes.claim(id, "owner-0", 1))!;
        await store.episodes.appendTurn(id, turn(0, "task"), claim);
        for (let round = 1; round <= 8; round++) {
          await lapse();
          const loser = claim;
          const next = round % 2 ? other : store;
          const [late, taken] = await Promise.allSettled([
            (round % 2 ? store : other).episodes.appendTurn(
              id,
              turn((await store.episodes.turns(id)).length, `late ${round}`),
              loser,
            ),
            next.episodes.claim(id, `owner-${round}`, 1),
          ]);
          expect(taken.status).toBe("fulfilled");
          claim = (taken as PromiseFulfilledResult<number | null>).value!;
          expect(claim).toBeGreaterThan(loser);
          if (late.status === "rejected") expect(late.reason).toBeInstanceOf(ClaimLost);
          // The winner reads after its claim and writes the next index: never refused.
          const index = (await next.episodes.turns(id)).length;
          await next.episodes.appendTurn(id, turn(index, `winner ${round}`), claim);
        }
        const stored = await store.episodes.turns(id);
        expect(stored.map((t) => t.index)).toEqual(stored.map((_, i) => i));
        expect(stored.filter((t) => t.content.startsWith("winner"))).toHaveLength(8);
        await store.episodes.finish(id, { answer: null, reward: 0, details: null }, claim);
      }
    } finally {
      await second?.close();
    }
  }, 60_000);
});
