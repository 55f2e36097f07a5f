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
export type EpisodeCounts = Pick<PipelineCounts, "episodesDone" | "tasksWithSamples" | "tasksWithTwoSamples" | "states">;

export async function pipelineEpisodeCounts(prisma: PrismaClient, runId: number): Promise<EpisodeCounts> {
  const finished = { runId, status: "done" as const };
  const [episodesDone, perTask, states] = await Promise.all([
    prisma.episode.count({ where: finished }),
    prisma.episode.groupBy({ by: ["taskId"], where: finished, _count: { _all: true } }),
    prisma.turn.count({ where: { role: "agent", episode: finished } }),
  ]);
  return { episodesDone, tasksWithSamples: perTask.length, tasksWithTwoSamples: perTask.filter((t) => t._count._all >= 2).length, states };
}

/** The counts of candidates, critic scores and pairs. */
export async function pipelineCandidateCounts(prisma: PrismaClient, runId: number): Promise<Omit<PipelineCounts, keyof EpisodeCounts>> {
  const finished = { runId, status: "done" as const };
  const ofRun = { turn: { episode: { runId } } };
  const [trajectoryPairs, statesWithCandidates, candidates, ranked, rankedStates, turnPairs] = await Promise.all([
    prisma.pair.count({ where: { runId, kind: "trajectory" } }),
    prisma.turn.count({ where: { role: "agent", episode: finished, candidates: { some: {} } } }),
    prisma.candidate.count({ where: ofRun }),
    prisma.candidate.count({ where: { ...ofRun, criticScore: { not: null } } }),
    prisma.turn.count({ where: { role: "agent", episode: { runId }, candidates: { some: { criticScore: { not: null } } } } }),
    prisma.pair.count({ where: { runId, kind: "turn" } }),
  ]);
  return { trajectoryPairs, statesWithCandidates, candidates, ranked, rankedStates, turnPairs };
}

export async function pipelineCounts(prisma: PrismaClient, runId: number, episodeCounts?: EpisodeCounts): Promise<PipelineCounts> {
  const [episodes, candidates] = await Promise.all([episodeCounts ?? pipelineEpisodeCounts(prisma, runId), pipelineCandidateCounts(prisma, runId)]);
  return { ...episodes, ...candidates };
}
