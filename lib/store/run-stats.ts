import type { PrismaClient } from "../db/generated/client";

// What the run page and Compare chart: per episode, its reward, how many turns it took, how long
// the answer was and the tokens each side spent, from the totals each episode row keeps.

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
  // The turn totals live on the episode (kept by triggers on Turn), so a 10,000-episode run reads
  // 10,000 rows here, not its 100,000 turns; they come as one JSON text because a driver turning
  // 10,000 rows of 14 columns into objects costs ten times what the database spends on them.
  const [row] = await prisma.$queryRaw<Array<{ rows: string | null }>>`
    SELECT json_agg(json_build_array(
             "id", "taskId", "sample", "status", "reward", "answerChars", "turnCount", "agentTurnCount",
             "agentPromptTokens", "agentCompletionTokens", "simulatorPromptTokens", "simulatorCompletionTokens",
             extract(epoch FROM "startedAt") * 1000, extract(epoch FROM "endedAt") * 1000) ORDER BY "id")::text AS rows
      FROM "Episode"
     WHERE "runId" = ${runId}`;
  type Row = [number, number, number, string, number | null, number | null, number, number, number, number, number, number, number | null, number | null];
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  return (JSON.parse(row?.rows ?? "[]") as Row[]).map(([id, taskId, sample, status, reward, answerChars, turns, agentTurns, ap, ac, sp, sc, startedAt, endedAt]) => ({
    id,
    taskId,
    sample,
    status,
    reward,
    turns,
    agentTurns,
    answerChars,
    tokens: { agent: { prompt: ap, completion: ac }, simulator: { prompt: sp, completion: sc } },
    startedAt: date(startedAt),
    endedAt: date(endedAt),
  }));
}
