import type { PrismaClient } from "../db/generated/client";

export interface RunSpan {
  /** When its first episode started (null: none has). */
  startedAt: Date | null;
  /** When its last episode ended, once none is left to play (null while any is pending or running). */
  endedAt: Date | null;
}

/** When a run was played: from its first episode's start to its last one's end. */
export async function runSpan(prisma: PrismaClient, runId: number): Promise<RunSpan> {
  const [span, open] = await Promise.all([
    prisma.episode.aggregate({ where: { runId }, _min: { startedAt: true }, _max: { endedAt: true } }),
    prisma.episode.count({ where: { runId, status: { in: ["pending", "running"] } } }),
  ]);
  return { startedAt: span._min.startedAt, endedAt: open ? null : span._max.endedAt };
}
