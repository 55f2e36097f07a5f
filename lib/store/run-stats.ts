import type { PrismaClient } from "../db/generated/client";

// What the run page and Compare chart: per episode, its reward, how many turns it took, how long
// the answer was and the tokens each side spent, from one aggregate query.

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
  const rows = await prisma.$queryRaw<
    Array<{ id: number; taskId: number; sample: number; status: string; reward: number | null; turns: bigint; agentTurns: bigint; answerChars: number | null; ap: bigint | null; ac: bigint | null; sp: bigint | null; sc: bigint | null; startedAt: Date | null; endedAt: Date | null }>
  >`
    SELECT e."id", e."taskId", e."sample", e."status"::text AS status, e."reward", length(e."answer") AS "answerChars", e."startedAt", e."endedAt",
           count(t."id") AS turns,
           count(t."id") FILTER (WHERE t."role" = 'agent') AS "agentTurns",
           sum((t."usage"->>'promptTokens')::bigint) FILTER (WHERE t."role" = 'agent') AS ap,
           sum((t."usage"->>'completionTokens')::bigint) FILTER (WHERE t."role" = 'agent') AS ac,
           sum((t."usage"->>'promptTokens')::bigint) FILTER (WHERE t."role" = 'simulator') AS sp,
           sum((t."usage"->>'completionTokens')::bigint) FILTER (WHERE t."role" = 'simulator') AS sc
      FROM "Episode" e LEFT JOIN "Turn" t ON t."episodeId" = e."id"
     WHERE e."runId" = ${runId}
     GROUP BY e."id"
     ORDER BY e."id"`;
  const n = (v: bigint | null) => Number(v ?? 0);
  return rows.map((r) => ({
    id: r.id,
    taskId: r.taskId,
    sample: r.sample,
    status: r.status,
    reward: r.reward,
    turns: n(r.turns),
    agentTurns: n(r.agentTurns),
    answerChars: r.answerChars,
    tokens: { agent: { prompt: n(r.ap), completion: n(r.ac) }, simulator: { prompt: n(r.sp), completion: n(r.sc) } },
    startedAt: r.startedAt,
    endedAt: r.endedAt,
  }));
}
