import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { makeRunPair, type RunPair } from "../label/testing/run-pair";
import { storeFor } from ".";
import { pipelineCandidateCounts } from "./sweet-progress";

// The pipeline panel's counts of candidates, critic scores and pairs come from one statement; here
// they are counted again from the rows themselves, on a run whose candidates are spread over
// finished and unfinished episodes, scored and not, and over a turn that is not the agent's.

const { backends, cleanup } = databaseBackends("sweet-progress");
afterAll(cleanup);

describe.each(backends)("the pipeline's counts on $label", ({ open }) => {
  let db: Database;
  let runs: RunPair;

  beforeAll(async () => {
    db = await open();
    runs = await makeRunPair(storeFor(db.prisma), { tasks: 5, prefix: "progress" });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  /** The counts, from every row of the run read back and counted here. */
  async function countedHere(runId: number) {
    const turns = await db.prisma.turn.findMany({
      where: { episode: { runId } },
      select: {
        id: true,
        role: true,
        episode: { select: { status: true } },
        candidates: { select: { criticScore: true } },
      },
    });
    const pairs = await db.prisma.pair.findMany({ where: { runId }, select: { kind: true } });
    const states = turns.filter((t) => t.role === "agent");
    const all = turns.flatMap((t) => t.candidates);
    return {
      trajectoryPairs: pairs.filter((p) => p.kind === "trajectory").length,
      statesWithCandidates: states.filter((t) => t.episode.status === "done" && t.candidates.length > 0).length,
      candidates: all.length,
      ranked: all.filter((c) => c.criticScore !== null).length,
      rankedStates: states.filter((t) => t.candidates.some((c) => c.criticScore !== null)).length,
      turnPairs: pairs.filter((p) => p.kind === "turn").length,
    };
  }

  it("equals the rows counted one by one, and counts nothing of another run", async () => {
    const run = runs.a.id;
    const none = {
      trajectoryPairs: 0,
      statesWithCandidates: 0,
      candidates: 0,
      ranked: 0,
      rankedStates: 0,
      turnPairs: 0,
    };
    expect(await pipelineCandidateCounts(db.prisma, run)).toEqual(none);

    const turns = await db.prisma.turn.findMany({
      where: { episode: { runId: run } },
      orderBy: { id: "asc" },
      select: { id: true, role: true, episodeId: true },
    });
    const agent = turns.filter((t) => t.role === "agent");
    const simulator = turns.find((t) => t.role === "simulator")!;
    // Three candidates on each of four agent turns; the first two of each turn scored on two of them.
    for (const [n, turn] of agent.slice(0, 4).entries()) {
      for (let index = 0; index < 3; index++) {
        await db.prisma.candidate.create({
          data: {
            turnId: turn.id,
            index,
            text: `candidate ${index}`,
            policyModel: "p",
            policyMean: -1,
            policySum: -3,
            criticScore: n % 2 === 0 && index < 2 ? -0.5 : null,
          },
        });
      }
    }
    // One on a simulator turn, scored: a candidate, ranked, but no state.
    await db.prisma.candidate.create({
      data: {
        turnId: simulator.id,
        index: 0,
        text: "odd",
        policyModel: "p",
        policyMean: -1,
        policySum: -1,
        criticScore: 0.1,
      },
    });
    // The episode of the third and fourth agent turns is not finished any more: its states still count as ranked, not as sampled.
    await db.prisma.episode.update({ where: { id: agent[2]!.episodeId }, data: { status: "running" } });
    for (const [ordinal, kind] of (["trajectory", "trajectory", "turn", "turn", "turn"] as const).entries()) {
      await db.prisma.pair.create({
        data: { runId: run, kind, source: "critic", ordinal, chosenId: 1, rejectedId: 2 },
      });
    }

    const counted = await countedHere(run);
    expect(counted).toEqual({
      trajectoryPairs: 2,
      statesWithCandidates: 2,
      candidates: 13,
      ranked: 5,
      rankedStates: 2,
      turnPairs: 3,
    });
    expect(await pipelineCandidateCounts(db.prisma, run)).toEqual(counted);
    expect(await pipelineCandidateCounts(db.prisma, runs.b.id)).toEqual(none);
  });
});
