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

/**
 * Whether the queue's per-person quota (Queue.quota: non-gold pairs one person labels) lets this
 * person ($1 the queue, $2 the person) take one more pair: no quota, or fewer pairs taken than it.
 * A pair taken is a slot of theirs, labelled or held (a skip gives the slot back, so a skipped pair
 * does not count). A claim's pick is gated on it, so at the quota nothing more is handed out.
 */
export const QUOTA_OPEN_SQL = `(SELECT q."quota" IS NULL OR q."quota" > (SELECT count(*) FROM "QueueSlot" t WHERE t."queueId" = $1 AND t."userId" = $2)
   FROM "Queue" q WHERE q."id" = $1)`;

/**
 * LEFT_SQL under the queue's quota, less `less` (a statement's own labelled slot, read before its
 * write): the pairs held unlabelled, plus as many free ones as the quota still allows
 * (left = held + min(free, max(quota - taken, 0)) = min(LEFT, max(quota - taken, 0) + held)).
 * Without a quota only LEFT_SQL runs (a CASE evaluates one branch): a key press pays for no count.
 */
export const leftSql = (less = "0") => `(SELECT CASE WHEN q."quota" IS NULL THEN ${LEFT_SQL} - ${less}
        ELSE (SELECT LEAST(${LEFT_SQL}, GREATEST(q."quota" - m."taken", 0) + m."held")
                FROM (SELECT count(*) AS "taken", count(*) FILTER (WHERE NOT t."labelled") AS "held"
                        FROM "QueueSlot" t WHERE t."queueId" = $1 AND t."userId" = $2) m) - ${less} END
   FROM "Queue" q WHERE q."id" = $1)`;

/** How many of a person's latest label times the desk's pace is the median of (queueProgress's `recentMs`). */
export const PACE_LABELS = 200;

/**
 * The quota beside a key press's counts ($1 the queue, $2 the person): the quota, and the non-gold
 * pairs labelled toward it, counted only where there is a quota (`stored`: the statement labels
 * a slot not yet in its snapshot). The pace is not read here: a median over the person's labels
 * made a key press 0.3 ms (14%) slower at 500 labels each; the desk adds its own times to the
 * `recentMs` that queueProgress sends when it opens (lib/label/pace.ts).
 */
export const quotaSql = (stored?: boolean) => `(SELECT "quota" FROM "Queue" WHERE "id" = $1) AS "quota",
   (SELECT CASE WHEN q."quota" IS NULL THEN NULL ELSE
      (SELECT count(*) FROM "QueueSlot" t WHERE t."queueId" = $1 AND t."userId" = $2 AND t."labelled")::int${stored ? ` + (SELECT count(*) FROM slot)::int` : ""} END
      FROM "Queue" q WHERE q."id" = $1) AS "counted"`;

/** The quota columns as the statements above return them. */
export interface QuotaRow {
  quota: number | null;
  counted: number | null;
}

export const quotaOf = (row: QuotaRow): QuotaCount => ({
  quota: row.quota === null ? null : Number(row.quota),
  counted: row.counted === null ? null : Number(row.counted),
});

/**
 * A pair this person put off ("come back later"), the one put off longest ago, for when nothing
 * else is held or free: `renewed`, `held` and `inserted` are the statement's own steps.
 */
export const LATER_SQL = (holding: string) => `SELECT * FROM (
           SELECT a."itemId", a."leftIsA" FROM renewed r JOIN "Assignment" a ON a."itemId" = r."itemId" AND a."userId" = $2
            WHERE a."deferredAt" IS NOT NULL AND NOT (r."itemId" = ANY(${holding}::int[]))
              AND NOT EXISTS (SELECT 1 FROM held) AND NOT EXISTS (SELECT 1 FROM inserted)
            ORDER BY a."deferredAt" LIMIT 1) later`;

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
              AND ${QUOTA_OPEN_SQL}
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
            WHERE NOT (r."itemId" = ANY($4::int[])) AND a."deferredAt" IS NULL
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
              AND ${QUOTA_OPEN_SQL}
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
         SELECT "itemId", "leftIsA" FROM inserted
         UNION ALL
         ${LATER_SQL("$4")}`,
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

/**
 * A gold pair (known answer) this person has not been shown; gold pairs take no slots and do not
 * count toward the quota, but a person at the quota is handed none either.
 */
export async function claimGold(prisma: PrismaClient, queueId: number, userId: number): Promise<Assigned | null> {
  const rows = await prisma.$queryRaw<Assigned[]>`
    INSERT INTO "Assignment" ("itemId", "userId", "leftIsA")
    SELECT i."id", ${userId}, random() < 0.5 FROM "QueueItem" i
     WHERE i."queueId" = ${queueId} AND i."gold" IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
       AND (SELECT q."quota" IS NULL OR q."quota" > (SELECT count(*) FROM "QueueSlot" t WHERE t."queueId" = ${queueId} AND t."userId" = ${userId})
              FROM "Queue" q WHERE q."id" = ${queueId})
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

/** A label as given: the side as the person saw it; a graded queue's strength and criteria beside it. */
export interface GivenLabel {
  queueId: number;
  itemId: number;
  userId: number;
  side: Side;
  comment: string | null;
  ms: number;
  strength?: "much" | "slightly" | null;
  /** Criterion name to the side as seen ("left" | "right" | "tie"). */
  criteria?: Record<string, string> | null;
}

/** The side a person pressed as the pair's a or b, through the order they were shown (`leftIsA` a column or alias). */
export const choiceSql = (side: string, leftIsA: string) => `(CASE ${side}::text
     WHEN 'left' THEN (CASE WHEN ${leftIsA} THEN 'a' ELSE 'b' END)
     WHEN 'right' THEN (CASE WHEN ${leftIsA} THEN 'b' ELSE 'a' END)
     ELSE ${side}::text END)::"LabelChoice"`;

/** A label's criteria (JSON of name to side as seen) as a and b, as its choice is stored. */
export const criteriaSql = (param: string, leftIsA: string) => `(CASE WHEN ${param}::jsonb IS NULL THEN NULL ELSE
     (SELECT coalesce(jsonb_object_agg(c.key, CASE c.value WHEN 'left' THEN (CASE WHEN ${leftIsA} THEN 'a' ELSE 'b' END)
                                                        WHEN 'right' THEN (CASE WHEN ${leftIsA} THEN 'b' ELSE 'a' END)
                                                        ELSE c.value END), '{}'::jsonb)
        FROM jsonb_each_text(${param}::jsonb) c) END)`;

export const criteriaParam = (criteria: Record<string, string> | null | undefined) =>
  criteria && Object.keys(criteria).length ? JSON.stringify(criteria) : null;

export type StoreLabelResult =
  | ({
      stored: true;
      labelId: number;
      duplicate: boolean;
      mine: number;
      given: number;
      left: number;
      kept?: { side: Side; choice: string };
    } & QuotaCount)
  | { stored: false; reason: string };

/**
 * Stores one label, in one statement: only for a pair assigned to this person and not skipped,
 * and for a non-gold pair only while they still hold its slot. The side they pressed becomes the
 * pair's a or b through the order they were shown. Sending the same label again is harmless.
 */
export async function storeLabel(prisma: PrismaClient, label: GivenLabel): Promise<StoreLabelResult> {
  const rows = await prisma.$queryRawUnsafe<
    Array<{ id: number | null; assigned: number; mine: number; given: number; left: number } & QuotaRow>
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
       INSERT INTO "Label" ("queueId", "itemId", "userId", "choice", "leftIsA", "comment", "ms", "strength", "criteria")
       SELECT $1, m."itemId", $2, ${choiceSql("$4", `m."leftIsA"`)}, m."leftIsA", $5, $6, $7, ${criteriaSql("$8", `m."leftIsA"`)}
         FROM mine m
        WHERE m."gold" OR EXISTS (SELECT 1 FROM slot)
       ON CONFLICT ("itemId", "userId") DO NOTHING
       RETURNING "id"
     )
     SELECT (SELECT "id" FROM stored) AS "id", (SELECT count(*) FROM mine)::int AS "assigned",
            ((SELECT count(*) FROM "Label" WHERE "queueId" = $1 AND "userId" = $2) + (SELECT count(*) FROM stored))::int AS "mine",
            ((SELECT "labelledSlots" FROM "Queue" WHERE "id" = $1) + (SELECT count(*) FROM slot))::int AS "given",
            ${leftSql("(SELECT count(*) FROM slot)")}::int AS "left", ${quotaSql(true)}`,
    label.queueId,
    label.userId,
    label.itemId,
    label.side,
    label.comment,
    Math.max(0, Math.round(label.ms)),
    label.strength ?? null,
    criteriaParam(label.criteria),
  );
  // The counts are read in the statement's snapshot, before its own writes: those are added above
  // (the slot just labelled was still this person's, unlabelled, so it counted as left).
  const row = rows[0]!;
  const quota = quotaOf(row);
  if (row.id !== null)
    return {
      stored: true,
      labelId: row.id,
      duplicate: false,
      mine: row.mine,
      given: row.given,
      left: row.left,
      ...quota,
    };
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
      ...quota,
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

/** Passes on a pair (with why, and whether it is broken): it is never offered to this person again, and its slot is free for others. */
export async function skipItem(
  prisma: PrismaClient,
  queueId: number,
  itemId: number,
  userId: number,
  why: { reason?: string | null; broken?: boolean } = {},
): Promise<boolean> {
  const rows = await prisma.$queryRaw<Array<{ skipped: number }>>`
    WITH passed AS (
      UPDATE "Assignment" a SET "skipped" = true, "skipReason" = ${why.reason ?? null}, "broken" = ${why.broken ?? false}, "deferredAt" = NULL
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

/**
 * "Come back later": the pair stays this person's (its slot held while their tab renews it) but is
 * offered after every pair held or free (LATER_SQL). False when they do not hold it unlabelled.
 */
export async function deferItem(
  prisma: PrismaClient,
  queueId: number,
  itemId: number,
  userId: number,
): Promise<boolean> {
  const changed = await prisma.$executeRaw`
    UPDATE "Assignment" a SET "deferredAt" = (now() AT TIME ZONE 'UTC')
     WHERE a."itemId" = ${itemId} AND a."userId" = ${userId} AND a."skipped" = false
       AND EXISTS (SELECT 1 FROM "QueueSlot" s WHERE s."itemId" = a."itemId" AND s."userId" = ${userId} AND s."labelled" = false AND s."queueId" = ${queueId})`;
  return changed > 0;
}

export interface RevisedLabel {
  labelId: number;
  version: number;
}

/**
 * Changes a label its person gave earlier (reopened from their history): the row becomes the new
 * version, and the one it replaces is kept as a LabelVersion. One statement; the row is locked, so
 * two changes at once make two versions in turn. Null when this person has no label on the pair.
 * Slots and assignments are untouched: the pair keeps exactly the labels it had.
 */
export async function reviseLabel(prisma: PrismaClient, label: GivenLabel): Promise<RevisedLabel | null> {
  const rows = await prisma.$queryRawUnsafe<RevisedLabel[]>(
    `WITH old AS (
       SELECT l.* FROM "Label" l WHERE l."queueId" = $1 AND l."userId" = $2 AND l."itemId" = $3 FOR UPDATE
     ), kept AS (
       INSERT INTO "LabelVersion" ("labelId", "version", "choice", "leftIsA", "strength", "criteria", "comment", "ms", "createdAt")
       SELECT "id", "version", "choice", "leftIsA", "strength", "criteria", "comment", "ms", "createdAt" FROM old
       RETURNING "labelId"
     )
     UPDATE "Label" l SET "choice" = ${choiceSql("$4", `old."leftIsA"`)}, "comment" = $5, "ms" = $6, "strength" = $7,
            "criteria" = ${criteriaSql("$8", `old."leftIsA"`)}, "version" = old."version" + 1, "createdAt" = ${NOW}
       FROM old WHERE l."id" = old."id" AND EXISTS (SELECT 1 FROM kept)
     RETURNING l."id" AS "labelId", l."version"`,
    label.queueId,
    label.userId,
    label.itemId,
    label.side,
    label.comment,
    Math.max(0, Math.round(label.ms)),
    label.strength ?? null,
    criteriaParam(label.criteria),
  );
  return rows[0] ?? null;
}

/** One of a person's labels as they gave it: the side as they saw it. */
export interface MyLabel {
  itemId: number;
  leftIsA: boolean;
  side: Side;
  strength: "much" | "slightly" | null;
  /** Criterion name to the side as they saw it. */
  criteria: Record<string, string> | null;
  comment: string | null;
  version: number;
  createdAt: Date;
}

const asSeen = (choice: string, leftIsA: boolean): string =>
  choice === "a" ? (leftIsA ? "left" : "right") : choice === "b" ? (leftIsA ? "right" : "left") : choice;

/** This person's labels of the queue, latest first (each at its latest version); with `itemId`, that pair's alone. */
export async function myLabels(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
  options: { itemId?: number; limit?: number } = {},
): Promise<MyLabel[]> {
  const rows = await prisma.label.findMany({
    where: { queueId, userId, ...(options.itemId === undefined ? {} : { itemId: options.itemId }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? 200,
    select: {
      itemId: true,
      leftIsA: true,
      choice: true,
      strength: true,
      criteria: true,
      comment: true,
      version: true,
      createdAt: true,
    },
  });
  return rows.map((r) => ({
    itemId: r.itemId,
    leftIsA: r.leftIsA,
    side: asSeen(r.choice, r.leftIsA) as Side,
    strength: (r.strength as MyLabel["strength"]) ?? null,
    criteria: r.criteria
      ? Object.fromEntries(
          Object.entries(r.criteria as Record<string, string>).map(([k, v]) => [k, asSeen(v, r.leftIsA)]),
        )
      : null,
    comment: r.comment,
    version: r.version,
    createdAt: r.createdAt,
  }));
}

/** How this person did on the queue's gold pairs (known answers). */
export async function goldStanding(
  prisma: PrismaClient,
  queueId: number,
  userId: number,
): Promise<{ labelled: number; correct: number }> {
  const rows = await prisma.$queryRaw<Array<{ labelled: number; correct: number }>>`
    SELECT count(*)::int AS "labelled", count(*) FILTER (WHERE l."choice" = i."gold")::int AS "correct"
      FROM "Label" l JOIN "QueueItem" i ON i."id" = l."itemId"
     WHERE l."queueId" = ${queueId} AND l."userId" = ${userId} AND i."gold" IS NOT NULL`;
  return rows[0]!;
}

/** Pairs people passed on with a reason or flagged as broken, for the queue's lead. */
export async function queueFlags(
  prisma: PrismaClient,
  queueId: number,
): Promise<Array<{ itemId: number; user: string; broken: boolean; reason: string | null }>> {
  const rows = await prisma.assignment.findMany({
    where: { item: { queueId }, skipped: true, OR: [{ broken: true }, { skipReason: { not: null } }] },
    orderBy: [{ itemId: "asc" }, { userId: "asc" }],
    select: { itemId: true, broken: true, skipReason: true, user: { select: { name: true } } },
  });
  return rows.map((r) => ({ itemId: r.itemId, user: r.user.name, broken: r.broken, reason: r.skipReason }));
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

/** The queue's per-person quota and this person's count toward it, beside the counts of a key press's answer. */
export interface QuotaCount {
  /** The most non-gold pairs one person labels in the queue; null: no cap. */
  quota: number | null;
  /** This person's labelled non-gold pairs, what the quota counts; null where there is no quota. */
  counted: number | null;
}

export interface Progress extends QuotaCount {
  /** This person's labels in the queue. */
  mine: number;
  /** Labels given and wanted over the queue's non-gold pairs. */
  given: number;
  wanted: number;
  /**
   * Pairs left for this person: held by them unlabelled, or never shown to them with a slot free
   * now, as many of those as the quota still allows.
   */
  left: number;
  /**
   * The desk's per-pair times (Label.ms) of this person's latest PACE_LABELS labels of the queue,
   * latest first: their pace. Sent when the desk opens, undoes or skips, not with a key press.
   */
  recentMs?: number[];
}

export async function queueProgress(prisma: PrismaClient, queueId: number, userId: number): Promise<Progress> {
  const rows = await prisma.$queryRawUnsafe<Array<Omit<Progress, keyof QuotaCount> & QuotaRow>>(
    `SELECT (SELECT count(*) FROM "Label" WHERE "queueId" = $1 AND "userId" = $2)::int AS "mine",
            (SELECT "labelledSlots" FROM "Queue" WHERE "id" = $1)::int AS "given",
            (SELECT "slots" FROM "Queue" WHERE "id" = $1)::int AS "wanted",
            coalesce(${leftSql()}, 0)::int AS "left", ${quotaSql()},
            ARRAY(SELECT l."ms" FROM "Label" l WHERE l."queueId" = $1 AND l."userId" = $2
                   ORDER BY l."id" DESC LIMIT ${PACE_LABELS}) AS "recentMs"`,
    queueId,
    userId,
  );
  const row = rows[0]!;
  return {
    mine: row.mine,
    given: row.given,
    wanted: row.wanted,
    left: row.left,
    ...quotaOf(row),
    recentMs: row.recentMs ?? [],
  };
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
  /** A graded queue's strength of an a/b choice. */
  strength: string | null;
  /** Criterion name to a | b | tie. */
  criteria: Record<string, string> | null;
  /** 1, or more when its person changed it (the row is the latest version). */
  version: number;
  /** A reviewer's verdict: accepted | rejected (a rejected label counts in no export's majority). */
  review: string | null;
  reviewNote: string | null;
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
      strength: true,
      criteria: true,
      version: true,
      review: true,
      reviewNote: true,
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
  return rows.map(({ user, ...r }) => ({
    ...r,
    criteria: (r.criteria as Record<string, string> | null) ?? null,
    user: user.name,
  }));
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
