import type { PrismaClient } from "../db/generated/client";

// One row per episode with what the run's figures count (reward, turns, answer length, tokens of
// each side, from the totals the episode row keeps): the input of run-figures.ts's reference
// `figuresOf`, against which the database's own counting is tested.

export interface EpisodeStats {
  id: number;
  taskId: number;
  sample: number;
  status: string;
  reward: number | null;
  turns: number;
  /** Agent turns: the questions it asked plus its answer. */
  agentTurns: number;
  answerChars: number | null;
  tokens: { agent: { prompt: number; completion: number }; simulator: { prompt: number; completion: number } };
  startedAt: Date | null;
  endedAt: Date | null;
}

export async function runEpisodeStats(prisma: PrismaClient, runId: number): Promise<EpisodeStats[]> {
  const rows = await prisma.episode.findMany({
    where: { runId },
    orderBy: { id: "asc" },
    select: {
      id: true,
      taskId: true,
      sample: true,
      status: true,
      reward: true,
      answerChars: true,
      turnCount: true,
      agentTurnCount: true,
      agentPromptTokens: true,
      agentCompletionTokens: true,
      simulatorPromptTokens: true,
      simulatorCompletionTokens: true,
      startedAt: true,
      endedAt: true,
    },
  });
  return rows.map((r) => ({
    id: r.id,
    taskId: r.taskId,
    sample: r.sample,
    status: r.status,
    reward: r.reward,
    turns: r.turnCount,
    agentTurns: r.agentTurnCount,
    answerChars: r.answerChars,
    tokens: {
      agent: { prompt: r.agentPromptTokens, completion: r.agentCompletionTokens },
      simulator: { prompt: r.simulatorPromptTokens, completion: r.simulatorCompletionTokens },
    },
    startedAt: r.startedAt,
    endedAt: r.endedAt,
  }));
}
