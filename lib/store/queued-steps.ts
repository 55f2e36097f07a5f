import type { Prisma, PrismaClient } from "../db/generated/client";

// SWEET-RL steps put on the run queue: the servers and options live here, the jobs carry the id.

export type QueuedStepName = "candidates" | "rank";

export async function insertQueuedStep(
  prisma: PrismaClient,
  runId: number,
  step: QueuedStepName,
  settings: Record<string, unknown>,
): Promise<number> {
  return (
    await prisma.queuedStep.create({
      data: { runId, step, settings: settings as Prisma.InputJsonValue },
      select: { id: true },
    })
  ).id;
}

export async function findQueuedStep(
  prisma: PrismaClient,
  id: number,
): Promise<{ id: number; runId: number; step: QueuedStepName; settings: Record<string, unknown> } | null> {
  const row = await prisma.queuedStep.findUnique({ where: { id } });
  return row
    ? {
        id: row.id,
        runId: row.runId,
        step: row.step as QueuedStepName,
        settings: row.settings as Record<string, unknown>,
      }
    : null;
}
