import type { PrismaClient } from "../db/generated/client";

/** How far SWEET-RL's steps have come on a run, counted from the rows themselves (not from a job's news). */
export interface PipelineCounts {
  /** Finished episodes, and the tasks with at least two of them (a trajectory pair needs two samples). */
  episodesDone: number;
  tasksWithSamples: number;
  tasksWithTwoSamples: number;
  trajectoryPairs: number;
  /** Agent turns of finished episodes (SWEET-RL's states), and how many have candidates. */
  states: number;
  statesWithCandidates: number;
  /** Candidates stored (each state's own output, index 0, included), and those a critic has scored. */
  candidates: number;
  ranked: number;
  /** States with a scored candidate, and the turn pairs drawn from them. */
  rankedStates: number;
  turnPairs: number;
}

/** The counts that come from the run's episodes and turns alone (the run page keeps them per revision: lib/store/run-memo.ts). */
export type EpisodeCounts = Pick<
  PipelineCounts,
  "episodesDone" | "tasksWithSamples" | "tasksWithTwoSamples" | "states"
>;

export async function pipelineEpisodeCounts(prisma: PrismaClient, runId: number): Promise<EpisodeCounts> {
  const finished = { runId, status: "done" as const };
  const [episodesDone, perTask, states] = await Promise.all([
    prisma.episode.count({ where: finished }),
    prisma.episode.groupBy({ by: ["taskId"], where: finished, _count: { _all: true } }),
    prisma.turn.count({ where: { role: "agent", episode: finished } }),
  ]);
  return {
    episodesDone,
    tasksWithSamples: perTask.length,
    tasksWithTwoSamples: perTask.filter((t) => t._count._all >= 2).length,
    states,
  };
}

/**
 * The counts of candidates, critic scores and pairs, in one statement: the run page asks for them
 * at every visit, and six counts through the client were six round trips and six queries for it
 * to build (~1.5 ms of the studio's event loop per page).
 */
export async function pipelineCandidateCounts(
  prisma: PrismaClient,
  runId: number,
): Promise<Omit<PipelineCounts, keyof EpisodeCounts>> {
  const [row] = await prisma.$queryRaw<Array<Omit<PipelineCounts, keyof EpisodeCounts>>>`
    WITH "candidates" AS (
      SELECT c."turnId", t."role" = 'agent' AS "state", e."status" = 'done' AS "finished", c."criticScore" IS NOT NULL AS "scored"
        FROM "Candidate" c JOIN "Turn" t ON t."id" = c."turnId" JOIN "Episode" e ON e."id" = t."episodeId"
       WHERE e."runId" = ${runId}
    )
    SELECT (SELECT count(*) FROM "Pair" WHERE "runId" = ${runId} AND "kind" = 'trajectory')::int AS "trajectoryPairs",
           (SELECT count(DISTINCT "turnId") FROM "candidates" WHERE "state" AND "finished")::int AS "statesWithCandidates",
           (SELECT count(*) FROM "candidates")::int AS "candidates",
           (SELECT count(*) FROM "candidates" WHERE "scored")::int AS "ranked",
           (SELECT count(DISTINCT "turnId") FROM "candidates" WHERE "state" AND "scored")::int AS "rankedStates",
           (SELECT count(*) FROM "Pair" WHERE "runId" = ${runId} AND "kind" = 'turn')::int AS "turnPairs"`;
  return row!;
}

export async function pipelineCounts(
  prisma: PrismaClient,
  runId: number,
  episodeCounts?: EpisodeCounts,
): Promise<PipelineCounts> {
  const [episodes, candidates] = await Promise.all([
    episodeCounts ?? pipelineEpisodeCounts(prisma, runId),
    pipelineCandidateCounts(prisma, runId),
  ]);
  return { ...episodes, ...candidates };
}
