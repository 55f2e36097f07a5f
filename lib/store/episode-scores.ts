import type { PrismaClient } from "../db/generated/client";
import { scoreCandidates, type CandidateScore } from "./sweet";

// One episode scored outside the ranking step: what a critic and a policy need to score its agent
// turns (the studio hands it to a browser that runs both models), and storing what came back.

export interface EpisodeToScore {
  episodeId: number;
  /** The task's final answer (hidden information: the critic is told it). */
  groundTruth: string;
  turns: Array<{ index: number; prompt: unknown; output: string; candidates: Array<{ index: number; text: string }> }>;
}

export async function episodeToScore(prisma: PrismaClient, episodeId: number): Promise<EpisodeToScore | null> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: {
      id: true,
      task: { select: { groundTruth: true } },
      turns: {
        where: { role: "agent" },
        orderBy: { index: "asc" },
        select: { index: true, prompt: true, rawOutput: true, content: true, candidates: { orderBy: { index: "asc" }, select: { index: true, text: true } } },
      },
    },
  });
  if (!episode) return null;
  return {
    episodeId: episode.id,
    groundTruth: episode.task.groundTruth,
    turns: episode.turns.map((t) => ({ index: t.index, prompt: t.prompt, output: t.rawOutput ?? t.content, candidates: t.candidates })),
  };
}

export interface ScoredValues {
  criticScore: number | null;
  policyMean: number | null;
  policySum: number | null;
  advantage: number | null;
}

export interface TurnScores extends ScoredValues {
  /** The agent turn's index in the episode. */
  turn: number;
  /** Its candidates' scores, where it has candidates (index 0, the turn's own output, among them). */
  candidates?: Array<ScoredValues & { index: number }>;
}

export class ScoreError extends Error {}

/**
 * Stores an episode's scores: candidates' critic scores, advantages and recomputed policy log-probs
 * (and through candidate 0 the turn's advantage), or the turn's advantage alone where it has no
 * candidates. Checks every turn and candidate first, so a bad list changes nothing.
 */
export async function saveEpisodeScores(prisma: PrismaClient, episodeId: number, models: { critic: string; policy: string }, turns: TurnScores[]): Promise<{ turns: number; candidates: number }> {
  const stored = await prisma.turn.findMany({ where: { episodeId }, select: { id: true, index: true, role: true, candidates: { select: { id: true, index: true } } } });
  const byIndex = new Map(stored.map((t) => [t.index, t]));
  const scores: CandidateScore[] = [];
  const plain: Array<{ id: number; advantage: number | null }> = [];
  const nan = (x: number | null) => x ?? Number.NaN;
  for (const t of turns) {
    const turn = byIndex.get(t.turn);
    if (!turn) throw new ScoreError(`turns: episode ${episodeId} has no turn ${t.turn}`);
    if (turn.role !== "agent") throw new ScoreError(`turns: turn ${t.turn} of episode ${episodeId} is the simulator's; scores belong to agent turns`);
    if (!t.candidates) {
      plain.push({ id: turn.id, advantage: t.advantage });
      continue;
    }
    for (const c of t.candidates) {
      const row = turn.candidates.find((r) => r.index === c.index);
      if (!row) throw new ScoreError(`turns: turn ${t.turn} has no candidate ${c.index}`);
      scores.push({ id: row.id, turnId: turn.id, index: c.index, criticScore: nan(c.criticScore), advantage: nan(c.advantage), policy: { model: models.policy, mean: nan(c.policyMean), sum: nan(c.policySum) } });
    }
  }
  if (scores.length) await scoreCandidates(prisma, models.critic, scores);
  for (const p of plain) await prisma.turn.update({ where: { id: p.id }, data: { advantage: p.advantage } });
  return { turns: turns.length, candidates: scores.length };
}
