import { afterAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../db/testing/backends";
import path from "node:path";
import { projectRoot } from "../paths";
import { appendTurn, ensureEpisodes } from "./episodes";
import { importTasks } from "./import-tasks";
import { insertCandidates, pairsOf, replacePairs, scoreCandidates } from "./sweet";

// `colbench turn-pairs` stores 512 pairs: on a busy machine each statement can take seconds, and an
// interactive transaction's 5 s default expired mid-way (Prisma: "A commit cannot be executed on an
// expired transaction"). Here a write to Pair or Candidate takes 5.5 s, and the pairs,
// candidates and ranks are still stored whole.

const { backends, cleanup } = databaseBackends("pairs-slow");
afterAll(cleanup);

describe.each(backends)("pairs on a slow $label database", (backend) => {
  it("replaces 512 pairs whole, in order, when each statement takes longer than a transaction's default", async () => {
    const db = await backend.open();
    try {
      const run = await db.prisma.run.create({ data: { name: "slow pairs", benchmark: "backend", config: {} } });
      await importTasks(db.prisma, {
        file: path.join(projectRoot, "samples", "backend.jsonl"),
        benchmark: "backend",
        name: "samples",
      });
      await ensureEpisodes(db.prisma, run.id, [(await db.prisma.task.findFirstOrThrow()).id], 1);
      const episodeId = (await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } })).id;
      await appendTurn(db.prisma, episodeId, {
        index: 0,
        role: "agent",
        content: "ask",
        rawOutput: "ask",
        prompt: [{ role: "user", content: "f" }],
      });
      const turnId = (await db.prisma.turn.findFirstOrThrow({ where: { episodeId } })).id;
      const first = Array.from({ length: 600 }, (_, i) => ({ chosenId: i + 1, rejectedId: i + 2 }));
      expect(await replacePairs(db.prisma, run.id, "turn", "critic", first, { seed: 1 })).toBe(600);
      // Another kind and source beside them stays as it is.
      await replacePairs(db.prisma, run.id, "trajectory", "rule", [{ chosenId: 7, rejectedId: 8 }], {});
      await db.prisma.$executeRawUnsafe(
        `CREATE FUNCTION slow_pairs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5.5); RETURN NULL; END $$`,
      );
      // One slowed statement each is enough to outlast a 5 s transaction: the pairs' insert, the ranks' update.
      await db.prisma.$executeRawUnsafe(
        `CREATE TRIGGER slow_writes BEFORE INSERT ON "Pair" FOR EACH STATEMENT EXECUTE FUNCTION slow_pairs()`,
      );
      await db.prisma.$executeRawUnsafe(
        `CREATE TRIGGER slow_writes BEFORE UPDATE ON "Candidate" FOR EACH STATEMENT EXECUTE FUNCTION slow_pairs()`,
      );
      const second = Array.from({ length: 512 }, (_, i) => ({ chosenId: 1000 + i, rejectedId: 2000 + i }));
      expect(await replacePairs(db.prisma, run.id, "turn", "critic", second, { seed: 42 })).toBe(512);
      const stored = await pairsOf(db.prisma, run.id, "turn");
      expect(stored.map((p) => [p.ordinal, p.chosenId, p.rejectedId])).toEqual(
        second.map((p, i) => [i, p.chosenId, p.rejectedId]),
      );
      expect(stored.every((p) => (p.params as { seed: number }).seed === 42)).toBe(true);
      expect((await pairsOf(db.prisma, run.id, "trajectory")).map((p) => p.chosenId)).toEqual([7]);

      // Candidates and their ranks (critic scores, advantages, the turn's advantage) on the same slow tables.
      const candidates = Array.from({ length: 16 }, (_, index) => ({
        index,
        text: `candidate ${index}`,
        policyModel: "p",
        policyMean: -1,
        policySum: -2,
      }));
      expect(await insertCandidates(db.prisma, turnId, candidates)).toBe(16);
      const rows = await db.prisma.candidate.findMany({ where: { turnId }, orderBy: { index: "asc" } });
      await scoreCandidates(
        db.prisma,
        "critic",
        rows.map((c) => ({ id: c.id, turnId, index: c.index, criticScore: -0.5 - c.index, advantage: 0.5 - c.index })),
      );
      expect(
        (await db.prisma.candidate.findMany({ where: { turnId }, orderBy: { index: "asc" } })).map((c) => c.advantage),
      ).toEqual(rows.map((c) => 0.5 - c.index));
      expect((await db.prisma.turn.findUniqueOrThrow({ where: { id: turnId } })).advantage).toBe(0.5);
    } finally {
      await db.close();
    }
  }, 150_000);
});
