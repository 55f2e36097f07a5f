import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { startPostgres, type PostgresServer } from "../db/testing/postgres-server";
import { projectRoot } from "../paths";
import { endedHere } from "../runs/owner";
import { storeFor, type Store } from ".";

// Two processes working one run must never both play an episode: claimEpisode is one UPDATE, and
// of two claimers at once PostgreSQL lets exactly one match.

const samples = path.join(projectRoot, "samples", "backend.jsonl");
const EPISODES = 200;
let server: PostgresServer;
let a: Database;
let b: Database;
let runId: number;
let episodeIds: number[];

async function makeRun(store: Store, name: string): Promise<{ runId: number; episodeIds: number[] }> {
  await store.tasks.import({ file: samples, benchmark: "backend", name: "samples" });
  const taskIds = (await store.tasks.list({ benchmark: "backend", pageSize: 200 })).items.map((t) => t.id);
  const bestOf = Math.ceil(EPISODES / taskIds.length);
  const config = { benchmark: "backend", selector: "all", taskIds, bestOf } as never;
  const run = await store.runs.insert({ name, benchmark: "backend", config });
  await store.episodes.ensure(run.id, taskIds, bestOf);
  const ids = (await store.episodes.unfinished(run.id)).map((e) => e.id).slice(0, EPISODES);
  return { runId: run.id, episodeIds: ids };
}

describe("claimEpisode on a real PostgreSQL server, two clients", () => {
  beforeAll(async () => {
    server = await startPostgres();
    const url = await server.createDatabase(`claims_${process.pid}`);
    a = await openDatabase({ url });
    // A second pool of connections, as a second process would have.
    b = await openDatabase({ url, migrate: false });
    ({ runId, episodeIds } = await makeRun(storeFor(a.prisma), "claims"));
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
  });

  it(`gives each of ${EPISODES} episodes to exactly one of two concurrent claimers`, async () => {
    expect(episodeIds).toHaveLength(EPISODES);
    const claimers = [
      { owner: "machine-a:1", store: storeFor(a.prisma) },
      { owner: "machine-b:2", store: storeFor(b.prisma) },
    ];
    // Both go through the same ids at the same time, with several claims in flight each.
    const won = await Promise.all(
      claimers.map(async ({ owner, store }) => {
        const mine: number[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < episodeIds.length) {
              const id = episodeIds[next++]!;
              if ((await store.episodes.claim(id, owner, 60_000)) !== null) mine.push(id);
            }
          }),
        );
        return mine;
      }),
    );
    const [first, second] = won as [number[], number[]];
    expect(first.length + second.length).toBe(EPISODES);
    expect(new Set([...first, ...second]).size).toBe(EPISODES);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    // The database agrees with what each claimer was told.
    const claims = await storeFor(a.prisma).episodes.claims(episodeIds);
    const owners = new Map(claims.map((c) => [c.id, c.claimedBy]));
    expect(first.every((id) => owners.get(id) === "machine-a:1")).toBe(true);
    expect(second.every((id) => owners.get(id) === "machine-b:2")).toBe(true);
    expect(claims.every((c) => c.status === "running")).toBe(true);
    // Neither can take the other's episodes while the claims hold; each may re-claim its own.
    // (On a quiet machine one claimer can win every episode: check from whichever side holds some.)
    const [holder, other] = second.length ? [claimers[1]!, claimers[0]!] : [claimers[0]!, claimers[1]!];
    const held = (second.length ? second : first)[0]!;
    expect(await other.store.episodes.claim(held, other.owner, 60_000)).toBeNull();
    expect(await holder.store.episodes.claim(held, holder.owner, 60_000)).not.toBeNull();
  });

  it("lets another process take an episode over once its claim lapses, and never a finished one", async () => {
    const store = storeFor(a.prisma);
    const [lapsing, finished] = (await store.episodes.unfinished(runId)).slice(-2).map((e) => e.id) as [number, number];
    // Made by a claim whose lease ran out (its process died without renewing it).
    expect(await store.episodes.claim(lapsing, "dead:1", 1)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await storeFor(b.prisma).episodes.claim(lapsing, "alive:2", 60_000)).not.toBeNull();
    expect(await store.episodes.claim(lapsing, "dead:1", 60_000)).toBeNull();
    // Renewing keeps a claim: the same short lease, renewed to a long one, is not taken.
    const claim = (await store.episodes.claim(finished, "player:3", 1))!;
    expect(claim).not.toBeNull();
    expect(await store.episodes.renewClaims([{ episodeId: finished, claim }], 60_000)).toEqual(new Set([finished]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await storeFor(b.prisma).episodes.claim(finished, "thief:4", 60_000)).toBeNull();
    await store.episodes.finish(finished, { answer: "x", reward: 1, details: null }, claim);
    expect(await store.episodes.claim(finished, "player:3", 60_000)).toBeNull();
  });
});

describe("claims on embedded PGlite", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-claims-"));
  let db: Database;
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lapse at once for processes of this machine that have ended, and hold for live ones", async () => {
    db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    const store = storeFor(db.prisma);
    const made = await makeRun(store, "pglite-claims");
    const [ended, live] = made.episodeIds as [number, number];
    // A pid past the kernel's largest is never alive.
    const gone = `${os.hostname()}:4194400:abc`;
    const here = `${os.hostname()}:${process.pid}:def`;
    expect(await store.episodes.claim(ended, gone, 60_000)).not.toBeNull();
    expect(await store.episodes.claim(live, here, 60_000)).not.toBeNull();
    expect(await store.episodes.claim(ended, "next:2", 60_000)).toBeNull();
    const holders = await store.episodes.claimHolders();
    expect(holders.sort()).toEqual([gone, here].sort());
    expect(await store.episodes.lapseClaimsOf(holders.filter(endedHere))).toBe(1);
    expect(await store.episodes.claim(ended, "next:2", 60_000)).not.toBeNull();
    expect(await store.episodes.claim(live, "next:2", 60_000)).toBeNull();
  }, 60_000);
});
