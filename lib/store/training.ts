import type { PrismaClient } from "../db/generated/client";
import type { Choice } from "./queues";

// A queue's training mode: a gold pair's known answer and its reason, read only from a label that
// is stored (the statement joins the person's own Label row), so nothing about gold can reach the
// desk before the label does.

export async function setQueueTraining(prisma: PrismaClient, queueId: number, on: boolean): Promise<boolean> {
  return (await prisma.$executeRaw`UPDATE "Queue" SET "trainingMode" = ${on} WHERE "id" = ${queueId}`) > 0;
}

export interface StoredGold {
  gold: Choice;
  reason: string | null;
  /** The person's stored choice and which side they saw on the left. */
  choice: Choice;
  leftIsA: boolean;
}

/** This person's stored label on a gold pair of the queue, with the known answer; null for any other pair. */
export async function storedGold(
  prisma: PrismaClient,
  queueId: number,
  itemId: number,
  userId: number,
): Promise<StoredGold | null> {
  const rows = await prisma.$queryRaw<StoredGold[]>`
    SELECT i."gold"::text AS "gold", i."goldReason" AS "reason", l."choice"::text AS "choice", l."leftIsA"
      FROM "Label" l JOIN "QueueItem" i ON i."id" = l."itemId"
     WHERE l."queueId" = ${queueId} AND l."itemId" = ${itemId} AND l."userId" = ${userId} AND i."gold" IS NOT NULL`;
  return rows[0] ?? null;
}

/** Whether this person's latest label of the queue (the one undo would take back) is on a gold pair. */
export async function latestLabelIsGold(prisma: PrismaClient, queueId: number, userId: number): Promise<boolean> {
  const rows = await prisma.$queryRaw<Array<{ gold: boolean }>>`
    SELECT (i."gold" IS NOT NULL) AS "gold"
      FROM "Label" l JOIN "QueueItem" i ON i."id" = l."itemId"
     WHERE l."queueId" = ${queueId} AND l."userId" = ${userId}
     ORDER BY l."id" DESC LIMIT 1`;
  return rows[0]?.gold ?? false;
}
