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

export async function pipelineCounts(prisma: PrismaClient, runId: number): Promise<PipelineCounts> {
  const finished = { runId, status: "done" as const };
  const ofRun = { turn: { episode: { runId } } };
  const [episodesDone, perTask, trajectoryPairs, states, statesWithCandidates, candidates, ranked, rankedStates, turnPairs] = await Promise.all([
    prisma.episode.count({ where: finished }),
    prisma.episode.groupBy({ by: ["taskId"], where: finished, _count: { _all: true } }),
    prisma.pair.count({ where: { runId, kind: "trajectory" } }),
    prisma.turn.count({ where: { role: "agent", episode: finished } }),
    prisma.turn.count({ where: { role: "agent", episode: finished, candidates: { some: {} } } }),
    prisma.candidate.count({ where: ofRun }),
    prisma.candidate.count({ where: { ...ofRun, criticScore: { not: null } } }),
    prisma.turn.count({ where: { role: "agent", episode: { runId }, candidates: { some: { criticScore: { not: null } } } } }),
    prisma.pair.count({ where: { runId, kind: "turn" } }),
  ]);
  return {
    episodesDone,
    tasksWithSamples: perTask.length,
    tasksWithTwoSamples: perTask.filter((t) => t._count._all >= 2).length,
    trajectoryPairs,
    states,
    statesWithCandidates,
    candidates,
    ranked,
    rankedStates,
    turnPairs,
  };
}
