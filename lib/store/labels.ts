import type { PrismaClient } from "../db/generated/client";
import type { Choice } from "./queues";

// Handing out pairs and storing labels. Every step that more than one person can race on is one
// SQL statement: the slot a claim takes is locked (FOR UPDATE SKIP LOCKED) and re-checked by the
// UPDATE that takes it, so under any concurrency no pair gets more labels than its overlap, and
// (item, user) is unique in Assignment and Label, so no one gets or labels a pair twice. Times are
// UTC in columns without a time zone, as Prisma writes them.

export interface Assigned {
  itemId: number;
  /** Which of the pair's sides this person sees on the left. */
  leftIsA: boolean;
}

/** What a person answers with: the side as they saw it, or tie / both bad. */
export type Side = "left" | "right" | "tie" | "both_bad";
export const SIDES: readonly Side[] = ["left", "right", "tie", "both_bad"];

const NOW = `(now() AT TIME ZONE 'UTC')`;

/**
 * How many pairs are left for a person ($1 the queue, $2 the person, as every statement here
 * binds them): the ones they hold unlabelled, and those they have never been shown with a slot
 * a claim could take now (free, or its lease lapsed). Gold pairs take no slots and are not counted:
 * they come at the queue's rate, not on demand. Others may take a free slot first, so it is what
 * they could still be given, not a promise. Read from the slots' own index, per key press.
 */
export const LEFT_SQL = `(SELECT count(DISTINCT s."itemId") FROM "QueueSlot" s
   WHERE s."queueId" = $1 AND s."labelled" = false
     AND (s."userId" = $2
          OR ((s."userId" IS NULL OR s."leaseUntil" < ${NOW})
              AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = s."itemId" AND a."userId" = $2))))`;

const isUniqueViolation = (error: unknown) =>
  /23505|unique constraint|duplicate key/i.test(String((error as Error)?.message ?? error));

/**
 * The next free slot of the queue, in queue order, of a pair this person has never been shown,
 * taken under a lease; null when there is none. One statement: concurrent claimers skip the
 * rows another holds locked, and the UPDATE re-checks that the slot is still free.
 */
export async function claimSlot(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  leaseMs: number,
): Promise<Assigned | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const rows = await prisma.$queryRawUnsafe<Assigned[]>(
        `WITH pick AS (
           SELECT s."id" FROM "QueueSlot" s
            WHERE s."queueId" = $1 AND s."labelled" = false
              AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
              AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = s."itemId" AND a."userId" = $2)
            ORDER BY s."ordinal", s."n"
            LIMIT 1
            FOR UPDATE SKIP LOCKED
         ), taken AS (
           UPDATE "QueueSlot" s SET "userId" = $2, "leaseUntil" = ${NOW} + make_interval(secs => $3)
             FROM pick
            WHERE s."id" = pick."id" AND s."labelled" = false AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
           RETURNING s."itemId"
         )
         INSERT INTO "Assignment" ("itemId", "userId", "leftIsA")
         SELECT taken."itemId", $2, random() < 0.5 FROM taken
         RETURNING "itemId", "leftIsA"`,
        queueId,
        userId,
        leaseMs / 1000,
      );
      return rows[0] ?? null;
    } catch (error) {
      // The same person claiming twice at once (two tabs) can pick two slots of one pair: the
      // second Assignment row is refused and its whole statement undone; it tries again.
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}

/**
 * The pair to show next beyond the ones the page holds, in one statement: one this person holds
 * already (a reload, a restart; its lease renewed), else a free slot claimed as `claimSlot` does.
 */
export async function nextAssignment(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  leaseMs: number,
  holding: number[],
): Promise<Assigned | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const rows = await prisma.$queryRawUnsafe<Assigned[]>(
        `WITH renewed AS (
           UPDATE "QueueSlot" s SET "leaseUntil" = ${NOW} + make_interval(secs => $3)
            WHERE s."queueId" = $1 AND s."userId" = $2 AND s."labelled" = false
           RETURNING s."itemId"
         ), held AS (
           SELECT a."itemId", a."leftIsA" FROM renewed r JOIN "Assignment" a ON a."itemId" = r."itemId" AND a."userId" = $2
            WHERE NOT (r."itemId" = ANY($4::int[]))
           UNION ALL
           SELECT a."itemId", a."leftIsA" FROM "Assignment" a JOIN "QueueItem" i ON i."id" = a."itemId"
            WHERE a."userId" = $2 AND i."queueId" = $1 AND i."gold" IS NOT NULL AND a."skipped" = false
              AND NOT (a."itemId" = ANY($4::int[]))
              AND NOT EXISTS (SELECT 1 FROM "Label" l WHERE l."itemId" = a."itemId" AND l."userId" = $2)
         ), pick AS (
           SELECT s."id" FROM "QueueSlot" s
            WHERE NOT EXISTS (SELECT 1 FROM held)
              AND s."queueId" = $1 AND s."labelled" = false
              AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
              AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = s."itemId" AND a."userId" = $2)
            ORDER BY s."ordinal", s."n"
            LIMIT 1
            FOR UPDATE SKIP LOCKED
         ), taken AS (
           UPDATE "QueueSlot" s SET "userId" = $2, "leaseUntil" = ${NOW} + make_interval(secs => $3)
             FROM pick
            WHERE s."id" = pick."id" AND s."labelled" = false AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
           RETURNING s."itemId"
         ), inserted AS (
           INSERT INTO "Assignment" ("itemId", "userId", "leftIsA")
           SELECT taken."itemId", $2, random() < 0.5 FROM taken
           RETURNING "itemId", "leftIsA"
         )
         SELECT * FROM (SELECT "itemId", "leftIsA" FROM held ORDER BY "itemId" LIMIT 1) h
         UNION ALL
         SELECT "itemId", "leftIsA" FROM inserted`,
        queueId,
        userId,
        leaseMs / 1000,
        holding,
      );
      return rows[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}

/** A gold pair (known answer) this person has not been shown; gold pairs take no slots. */
export async function claimGold(prisma: PrismaClient, queueId: number, userId: number): Promise<Assigned | null> {
  const rows = await prisma.$queryRaw<Assigned[]>`
    INSERT INTO "Assignment" ("itemId", "userId", "leftIsA")
    SELECT i."id", ${userId}, random() < 0.5 FROM "QueueItem" i
     WHERE i."queueId" = ${queueId} AND i."gold" IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
     ORDER BY random()
     LIMIT 1
    ON CONFLICT DO NOTHING
    RETURNING "itemId", "leftIsA"`;
  return rows[0] ?? null;
}

/**
 * Pairs this person holds and has not labelled or skipped (a reload, a second tab, a restart),
 * oldest first; their leases are renewed in the same statement.
 */
export async function openAssignments(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  leaseMs: number,
): Promise<Assigned[]> {
  return prisma.$queryRawUnsafe<Assigned[]>(
    `WITH renewed AS (
       UPDATE "QueueSlot" s SET "leaseUntil" = ${NOW} + make_interval(secs => $3)
        WHERE s."queueId" = $1 AND s."userId" = $2 AND s."labelled" = false
       RETURNING s."itemId"
     )
     SELECT a."itemId", a."leftIsA" FROM renewed r JOIN "Assignment" a ON a."itemId" = r."itemId" AND a."userId" = $2
     UNION ALL
     SELECT a."itemId", a."leftIsA" FROM "Assignment" a JOIN "QueueItem" i ON i."id" = a."itemId"
      WHERE a."userId" = $2 AND i."queueId" = $1 AND i."gold" IS NOT NULL AND a."skipped" = false
        AND NOT EXISTS (SELECT 1 FROM "Label" l WHERE l."itemId" = a."itemId" AND l."userId" = $2)
     ORDER BY 1`,
    queueId,
    userId,
    leaseMs / 1000,
  );
}

export type StoreLabelResult =
  | {
      stored: true;
      labelId: number;
      duplicate: boolean;
      mine: number;
      given: number;
      left: number;
      kept?: { side: Side; choice: string };
    }
  | { stored: false; reason: string };

/**
 * Stores one label, in one statement: only for a pair assigned to this person and not skipped,
 * and for a non-gold pair only while they still hold its slot. The side they pressed becomes the
 * pair's a or b through the order they were shown. Sending the same label again is harmless.
 */
export async function storeLabel(
  prisma: PrismaClient,
  label: { queueId: number; itemId: number; userId: number; side: Side; comment: string | null; ms: number },
): Promise<StoreLabelResult> {
  const rows = await prisma.$queryRawUnsafe<
    Array<{ id: number | null; assigned: number; mine: number; given: number; left: number }>
  >(
    `WITH mine AS (
       SELECT a."itemId", a."leftIsA", (i."gold" IS NOT NULL) AS "gold"
         FROM "Assignment" a JOIN "QueueItem" i ON i."id" = a."itemId"
        WHERE a."itemId" = $3 AND a."userId" = $2 AND i."queueId" = $1 AND a."skipped" = false
     ), slot AS (
       UPDATE "QueueSlot" s SET "labelled" = true, "leaseUntil" = NULL
        WHERE s."itemId" = $3 AND s."userId" = $2 AND s."labelled" = false
          AND EXISTS (SELECT 1 FROM mine WHERE NOT mine."gold")
       RETURNING s."id"
     ), stored AS (
       INSERT INTO "Label" ("queueId", "itemId", "userId", "choice", "leftIsA", "comment", "ms")
       SELECT $1, m."itemId", $2,
              (CASE $4::text
                 WHEN 'left' THEN (CASE WHEN m."leftIsA" THEN 'a' ELSE 'b' END)
                 WHEN 'right' THEN (CASE WHEN m."leftIsA" THEN 'b' ELSE 'a' END)
                 ELSE $4::text END)::"LabelChoice",
              m."leftIsA", $5, $6
         FROM mine m
        WHERE m."gold" OR EXISTS (SELECT 1 FROM slot)
       ON CONFLICT ("itemId", "userId") DO NOTHING
       RETURNING "id"
     )
     SELECT (SELECT "id" FROM stored) AS "id", (SELECT count(*) FROM mine)::int AS "assigned",
            ((SELECT count(*) FROM "Label" WHERE "queueId" = $1 AND "userId" = $2) + (SELECT count(*) FROM stored))::int AS "mine",
            ((SELECT "labelledSlots" FROM "Queue" WHERE "id" = $1) + (SELECT count(*) FROM slot))::int AS "given",
            (${LEFT_SQL} - (SELECT count(*) FROM slot))::int AS "left"`,
    label.queueId,
    label.userId,
    label.itemId,
    label.side,
    label.comment,
    Math.max(0, Math.round(label.ms)),
  );
  // The counts are read in the statement's snapshot, before its own writes: those are added above
  // (the slot just labelled was still this person's, unlabelled, so it counted as left).
  const row = rows[0]!;
  if (row.id !== null)
    return { stored: true, labelId: row.id, duplicate: false, mine: row.mine, given: row.given, left: row.left };
  // A resend of this queue's label keeps the first choice (and says which); another queue's item is no resend.
  const existing = await prisma.label.findFirst({
    where: { itemId: label.itemId, userId: label.userId, queueId: label.queueId },
    select: { id: true, choice: true, leftIsA: true },
  });
  if (existing) {
    const side: Side =
      existing.choice === "a"
        ? existing.leftIsA
          ? "left"
          : "right"
        : existing.choice === "b"
          ? existing.leftIsA
            ? "right"
            : "left"
          : existing.choice;
    return {
      stored: true,
      labelId: existing.id,
      duplicate: true,
      mine: row.mine,
      given: row.given,
      left: row.left,
      kept: { side, choice: existing.choice },
    };
  }
  if (!row.assigned) {
    const item = await prisma.queueItem.findUnique({ where: { id: label.itemId }, select: { queueId: true } });
    if (!item || item.queueId !== label.queueId)
      return { stored: false, reason: `pair ${label.itemId} is not a pair of this queue: nothing was stored` };
    return { stored: false, reason: "this pair is not assigned to you (or you skipped it)" };
  }
  return { stored: false, reason: "your hold on this pair ran out and someone else took it" };
}

/**
 * Takes back this person's latest label of the queue: the label goes and its slot is theirs again
 * under a fresh lease, so they can label the pair anew. Null when they have no label left.
 */
export async function undoLastLabel(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  leaseMs: number,
): Promise<(Assigned & { choice: Choice }) | null> {
  const rows = await prisma.$queryRawUnsafe<Array<Assigned & { choice: Choice }>>(
    `WITH last AS (
       SELECT l."id" FROM "Label" l WHERE l."queueId" = $1 AND l."userId" = $2 ORDER BY l."id" DESC LIMIT 1
     ), gone AS (
       DELETE FROM "Label" l USING last WHERE l."id" = last."id" RETURNING l."itemId", l."choice", l."leftIsA"
     ), reopened AS (
       UPDATE "QueueSlot" s SET "labelled" = false, "leaseUntil" = ${NOW} + make_interval(secs => $3)
        WHERE s."itemId" IN (SELECT "itemId" FROM gone) AND s."userId" = $2 AND s."labelled" = true
       RETURNING s."id"
     )
     SELECT g."itemId", g."leftIsA", g."choice"::text AS "choice", (SELECT count(*) FROM reopened)::int AS "reopened" FROM gone g`,
    queueId,
    userId,
    leaseMs / 1000,
  );
  const row = rows[0];
  return row ? { itemId: row.itemId, leftIsA: row.leftIsA, choice: row.choice } : null;
}

/** Passes on a pair: it is never offered to this person again, and its slot is free for others. */
export async function skipItem(
  prisma: PrismaClient,
  queueId: number,
  itemId: number,
  userId: number,
): Promise<boolean> {
  const rows = await prisma.$queryRaw<Array<{ skipped: number }>>`
    WITH passed AS (
      UPDATE "Assignment" a SET "skipped" = true
       WHERE a."itemId" = ${itemId} AND a."userId" = ${userId}
         AND EXISTS (SELECT 1 FROM "QueueItem" i WHERE i."id" = a."itemId" AND i."queueId" = ${queueId})
         AND NOT EXISTS (SELECT 1 FROM "Label" l WHERE l."itemId" = a."itemId" AND l."userId" = ${userId})
      RETURNING a."itemId"
    ), freed AS (
      UPDATE "QueueSlot" s SET "userId" = NULL, "leaseUntil" = NULL
       WHERE s."itemId" IN (SELECT "itemId" FROM passed) AND s."userId" = ${userId} AND s."labelled" = false
      RETURNING s."id"
    )
    SELECT (SELECT count(*) FROM passed)::int AS "skipped", (SELECT count(*) FROM freed)::int AS "freed"`;
  return rows[0]!.skipped > 0;
}

/** Keeps the leases of the pairs a person holds alive (an open tab says so every minute). */
export async function renewLeases(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  leaseMs: number,
): Promise<number> {
  return prisma.$executeRawUnsafe(
    `UPDATE "QueueSlot" SET "leaseUntil" = ${NOW} + make_interval(secs => $3) WHERE "queueId" = $1 AND "userId" = $2 AND "labelled" = false`,
    queueId,
    userId,
    leaseMs / 1000,
  );
}

export interface Progress {
  /** This person's labels in the queue. */
  mine: number;
  /** Labels given and wanted over the queue's non-gold pairs. */
  given: number;
  wanted: number;
  /** Pairs left for this person: held by them unlabelled, or never shown to them with a slot free now. */
  left: number;
}

export async function queueProgress(prisma: PrismaClient, queueId: number, userId: number): Promise<Progress> {
  const rows = await prisma.$queryRawUnsafe<Progress[]>(
    `SELECT (SELECT count(*) FROM "Label" WHERE "queueId" = $1 AND "userId" = $2)::int AS "mine",
            (SELECT "labelledSlots" FROM "Queue" WHERE "id" = $1)::int AS "given",
            (SELECT "slots" FROM "Queue" WHERE "id" = $1)::int AS "wanted",
            ${LEFT_SQL}::int AS "left"`,
    queueId,
    userId,
  );
  return rows[0]!;
}

export async function isQueueMember(prisma: PrismaClient, queueId: number, userId: number): Promise<boolean> {
  return (await prisma.queueMember.count({ where: { queueId, userId } })) > 0;
}

export interface LabelRow {
  id: number;
  itemId: number;
  userId: number;
  user: string;
  choice: Choice;
  leftIsA: boolean;
  comment: string | null;
  ms: number;
  createdAt: Date;
  item: {
    ordinal: number;
    taskId: number;
    aRunId: number;
    bRunId: number;
    aEpisodeId: number | null;
    bEpisodeId: number | null;
    aCandidateId: number | null;
    bCandidateId: number | null;
    sourceChoice: Choice | null;
    gold: Choice | null;
    params: unknown;
  };
}

/** Every label of a queue with its pair, in the order they were given. */
export async function queueLabels(prisma: PrismaClient, queueId: number): Promise<LabelRow[]> {
  const rows = await prisma.label.findMany({
    where: { queueId },
    orderBy: { id: "asc" },
    select: {
      id: true,
      itemId: true,
      userId: true,
      choice: true,
      leftIsA: true,
      comment: true,
      ms: true,
      createdAt: true,
      user: { select: { name: true } },
      item: {
        select: {
          ordinal: true,
          taskId: true,
          aRunId: true,
          bRunId: true,
          aEpisodeId: true,
          bEpisodeId: true,
          aCandidateId: true,
          bCandidateId: true,
          sourceChoice: true,
          gold: true,
          params: true,
        },
      },
    },
  });
  return rows.map(({ user, ...r }) => ({ ...r, user: user.name }));
}

export interface RunVote {
  aRunId: number;
  bRunId: number;
  choice: Choice;
}

/** Labels on pairs whose sides come from two different runs: the human-preference leaderboard's votes. */
export async function runVotes(prisma: PrismaClient): Promise<RunVote[]> {
  return prisma.$queryRaw<RunVote[]>`
    SELECT i."aRunId", i."bRunId", l."choice"::text AS "choice"
      FROM "Label" l JOIN "QueueItem" i ON i."id" = l."itemId"
     WHERE i."aRunId" <> i."bRunId"`;
}

/** Every slot of a queue (a check that no pair got more labels than its overlap). */
export async function queueSlots(
  prisma: PrismaClient,
  queueId: number,
): Promise<Array<{ itemId: number; userId: number | null; labelled: boolean }>> {
  return prisma.queueSlot.findMany({
    where: { queueId },
    orderBy: [{ ordinal: "asc" }, { n: "asc" }],
    select: { itemId: true, userId: true, labelled: true },
  });
}
