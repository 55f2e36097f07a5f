import type { PrismaClient } from "../db/generated/client";
import type { Choice } from "./queues";

// Review and adjudication: a queue's reviewers accept or reject labels (a rejected label counts in
// no export's majority) and decide its split pairs (the exports use that decision and say so).

export async function addQueueReviewers(prisma: PrismaClient, queueId: number, userIds: number[]): Promise<number> {
  return (
    await prisma.queueReviewer.createMany({
      data: userIds.map((userId) => ({ queueId, userId })),
      skipDuplicates: true,
    })
  ).count;
}

export async function isQueueReviewer(prisma: PrismaClient, queueId: number, userId: number): Promise<boolean> {
  return (await prisma.queueReviewer.count({ where: { queueId, userId } })) > 0;
}

export type Verdict = "accepted" | "rejected";

/** A reviewer's verdict on one label of the queue (null takes it back); false when the queue has no such label. */
export async function reviewLabel(
  prisma: PrismaClient,
  review: { queueId: number; labelId: number; reviewerId: number; verdict: Verdict | null; note: string | null },
): Promise<boolean> {
  const changed = await prisma.label.updateMany({
    where: { id: review.labelId, queueId: review.queueId },
    data: {
      review: review.verdict,
      reviewerId: review.verdict ? review.reviewerId : null,
      reviewNote: review.verdict ? review.note : null,
      reviewedAt: review.verdict ? new Date() : null,
    },
  });
  return changed.count > 0;
}

export interface AdjudicationRow {
  itemId: number;
  choice: Choice;
  user: string;
  reason: string | null;
  createdAt: Date;
}

/** Decides a pair of the queue (a later decision replaces an earlier one); false when the pair is not the queue's. */
export async function adjudicateItem(
  prisma: PrismaClient,
  decision: { queueId: number; itemId: number; userId: number; choice: Choice; reason: string | null },
): Promise<boolean> {
  const rows = await prisma.$queryRaw<Array<{ itemId: number }>>`
    INSERT INTO "Adjudication" ("itemId", "queueId", "userId", "choice", "reason")
    SELECT i."id", i."queueId", ${decision.userId}, ${decision.choice}::text::"LabelChoice", ${decision.reason}
      FROM "QueueItem" i WHERE i."id" = ${decision.itemId} AND i."queueId" = ${decision.queueId}
    ON CONFLICT ("itemId") DO UPDATE SET "choice" = EXCLUDED."choice", "userId" = EXCLUDED."userId",
                                         "reason" = EXCLUDED."reason", "createdAt" = now() AT TIME ZONE 'UTC'
    RETURNING "itemId"`;
  return rows.length > 0;
}

export async function queueAdjudications(prisma: PrismaClient, queueId: number): Promise<AdjudicationRow[]> {
  return prisma.$queryRaw<AdjudicationRow[]>`
    SELECT d."itemId", d."choice"::text AS "choice", u."name" AS "user", d."reason", d."createdAt"
      FROM "Adjudication" d JOIN "User" u ON u."id" = d."userId"
     WHERE d."queueId" = ${queueId} ORDER BY d."itemId"`;
}
