import type { PrismaClient } from "../db/generated/client";
import {
  LATER_SQL,
  QUOTA_OPEN_SQL,
  leftSql,
  quotaOf,
  quotaSql,
  type Assigned,
  type QuotaRow,
  type Side,
  type StoreLabelResult,
} from "./labels";
import { contentOf, itemSql, type ItemContent, type ItemRow } from "./queues";

// A key press at the labelling desk is the studio's commonest write: the label, the pair after the
// ones the page holds, and that pair's content go in one statement (one round trip, one turn at
// the embedded database's session gate) instead of three. The label's part is `storeLabel`'s and
// the claim's part `nextAssignment`'s (lib/store/labels.ts), with two changes that one snapshot
// needs: the claim only runs when the label is stored (now or before), and the lease renewal
// leaves the labelled pair's slot alone (a row is updated once per statement). The queue's own row
// comes in the same statement (`desk`): the person's right to label it is checked there, before
// anything is written, so a key press needs no query of its own to find the queue first.

const NOW = `(now() AT TIME ZONE 'UTC')`;

const SQL = `
  WITH desk AS (
    SELECT q."goldRate", q."showsHidden", q."hidesScores", q."slots" AS "wanted", q."labelledSlots",
           (q."labelSchema" = '{}'::jsonb) AS "plain", (q."closedAt" IS NULL) AS "open",
           ($9::boolean OR EXISTS (SELECT 1 FROM "QueueMember" m WHERE m."queueId" = q."id" AND m."userId" = $2)) AS "member"
      FROM "Queue" q WHERE q."id" = $1
  ), allowed AS (
    SELECT 1 FROM desk WHERE desk."member" AND desk."goldRate" = 0 AND desk."plain" AND desk."open"
  ), mine AS (
    SELECT a."itemId", a."leftIsA", (i."gold" IS NOT NULL) AS "gold"
      FROM "Assignment" a JOIN "QueueItem" i ON i."id" = a."itemId"
     WHERE a."itemId" = $3 AND a."userId" = $2 AND i."queueId" = $1 AND a."skipped" = false
       AND EXISTS (SELECT 1 FROM allowed)
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
  ), earlier AS (
    SELECT l."id", l."choice", l."leftIsA" FROM "Label" l WHERE l."itemId" = $3 AND l."userId" = $2 AND l."queueId" = $1
  ), go AS (
    SELECT 1 AS ok WHERE EXISTS (SELECT 1 FROM allowed) AND (EXISTS (SELECT 1 FROM stored) OR EXISTS (SELECT 1 FROM earlier))
  ), renewed AS (
    UPDATE "QueueSlot" s SET "leaseUntil" = ${NOW} + make_interval(secs => $7)
     WHERE s."queueId" = $1 AND s."userId" = $2 AND s."labelled" = false AND s."itemId" <> $3
       AND EXISTS (SELECT 1 FROM go)
    RETURNING s."itemId"
  ), held AS (
    SELECT a."itemId", a."leftIsA" FROM renewed r JOIN "Assignment" a ON a."itemId" = r."itemId" AND a."userId" = $2
     WHERE NOT (r."itemId" = ANY($8::int[])) AND a."deferredAt" IS NULL
    UNION ALL
    SELECT a."itemId", a."leftIsA" FROM "Assignment" a JOIN "QueueItem" i ON i."id" = a."itemId"
     WHERE EXISTS (SELECT 1 FROM go) AND a."userId" = $2 AND i."queueId" = $1 AND i."gold" IS NOT NULL AND a."skipped" = false
       AND a."itemId" <> $3 AND NOT (a."itemId" = ANY($8::int[]))
       AND NOT EXISTS (SELECT 1 FROM "Label" l WHERE l."itemId" = a."itemId" AND l."userId" = $2)
  ), pick AS (
    SELECT s."id" FROM "QueueSlot" s
     WHERE EXISTS (SELECT 1 FROM go) AND NOT EXISTS (SELECT 1 FROM held)
       AND s."queueId" = $1 AND s."labelled" = false
       AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
       AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = s."itemId" AND a."userId" = $2)
       AND ${QUOTA_OPEN_SQL}
     ORDER BY s."ordinal", s."n"
     LIMIT 1
     FOR UPDATE SKIP LOCKED
  ), taken AS (
    UPDATE "QueueSlot" s SET "userId" = $2, "leaseUntil" = ${NOW} + make_interval(secs => $7)
      FROM pick
     WHERE s."id" = pick."id" AND s."labelled" = false AND (s."userId" IS NULL OR s."leaseUntil" < ${NOW})
    RETURNING s."itemId"
  ), inserted AS (
    INSERT INTO "Assignment" ("itemId", "userId", "leftIsA")
    SELECT taken."itemId", $2, random() < 0.5 FROM taken
    RETURNING "itemId", "leftIsA"
  ), next AS (
    SELECT * FROM (SELECT "itemId", "leftIsA" FROM held ORDER BY "itemId" LIMIT 1) h
    UNION ALL
    SELECT "itemId", "leftIsA" FROM inserted
    UNION ALL
    ${LATER_SQL("$8")}
    LIMIT 1
  )
  SELECT (SELECT "id" FROM stored) AS "labelId", (SELECT "id" FROM earlier) AS "earlierId",
         (SELECT "choice"::text FROM earlier) AS "earlierChoice", (SELECT "leftIsA" FROM earlier) AS "earlierLeftIsA",
         (SELECT "queueId" FROM "QueueItem" WHERE "id" = $3) AS "itemQueueId",
         (SELECT count(*) FROM mine)::int AS "assigned",
         ((SELECT count(*) FROM "Label" WHERE "queueId" = $1 AND "userId" = $2) + (SELECT count(*) FROM stored))::int AS "mine",
         ((SELECT "labelledSlots" FROM desk) + (SELECT count(*) FROM slot))::int AS "given",
         ${leftSql("(SELECT count(*) FROM slot)")}::int AS "left", ${quotaSql(true)},
         n."leftIsA" AS "nextLeftIsA",
         (SELECT count(*) FROM desk)::int AS "queueFound", coalesce((SELECT "member" FROM desk), false) AS "member",
         (SELECT "goldRate" FROM desk) AS "goldRate", coalesce((SELECT "showsHidden" FROM desk), false) AS "showsHidden",
         coalesce((SELECT "hidesScores" FROM desk), false) AS "hidesScores",
         coalesce((SELECT "plain" FROM desk), true) AS "plain", coalesce((SELECT "open" FROM desk), true) AS "open",
         (SELECT "wanted" FROM desk)::int AS "wanted", c.*
    FROM (SELECT 1) one
    LEFT JOIN next n ON true
    LEFT JOIN LATERAL (${itemSql(`n."itemId"`)}) c ON true`;

interface Row extends Partial<ItemRow>, QuotaRow {
  labelId: number | null;
  earlierId: number | null;
  earlierChoice: string | null;
  earlierLeftIsA: boolean | null;
  itemQueueId: number | null;
  assigned: number;
  mine: number;
  given: number;
  left: number;
  nextLeftIsA: boolean | null;
  queueFound: number;
  member: boolean;
  goldRate: number | null;
  showsHidden: boolean;
  hidesScores: boolean;
  plain: boolean;
  open: boolean;
  wanted: number | null;
}

/** The queue as the statement found it: whether it exists, the person may label it, and what the desk shows. */
export interface DeskFacts {
  found: boolean;
  /** A member of the queue, or someone whose role may label any queue (`anyQueue`). */
  member: boolean;
  goldRate: number;
  showsHidden: boolean;
  hidesScores: boolean;
  /** The queue's label schema asks for nothing beyond the choice (else its labels go the desk's checked way). */
  plain: boolean;
  /** Not closed (a closed queue's refusal is the desk's to word). */
  open: boolean;
  wanted: number;
}

/**
 * What the statement did. Nothing is written, and `label.stored` is false, when the queue is missing,
 * the person may not label it, it mixes gold pairs in, or its label schema asks for more than the
 * choice (`desk` says which: such queues take the desk's other way, a checked label then a draw).
 */
export type LabelAndNext = {
  label: StoreLabelResult;
  next: (Assigned & { content: ItemContent }) | null;
  desk: DeskFacts;
};

/**
 * Stores one label as `storeLabel` does and, once it is stored (now or by an earlier send of the
 * same label), claims the next pair for this person beyond `holding` as `nextAssignment` does,
 * with its content. A refused label claims nothing.
 */
export async function labelAndNext(
  prisma: PrismaClient,
  label: { queueId: number; itemId: number; userId: number; side: Side; comment: string | null; ms: number },
  leaseMs: number,
  holding: number[],
  access: { anyQueue: boolean },
): Promise<LabelAndNext> {
  const args = [
    label.queueId,
    label.userId,
    label.itemId,
    label.side,
    label.comment,
    Math.max(0, Math.round(label.ms)),
    leaseMs / 1000,
    holding,
    access.anyQueue,
  ] as const;
  let row: Row;
  for (let attempt = 0; ; attempt++) {
    try {
      row = (await prisma.$queryRawUnsafe<Row[]>(SQL, ...args))[0]!;
      break;
    } catch (error) {
      // The same person claiming twice at once (two tabs) can pick two slots of one pair: the
      // second Assignment row is refused and the whole statement undone (the label too): again.
      if (/23505|unique constraint|duplicate key/i.test(String((error as Error)?.message ?? error)) && attempt < 5)
        continue;
      throw error;
    }
  }
  const desk: DeskFacts = {
    found: row.queueFound > 0,
    member: row.member,
    goldRate: row.goldRate ?? 0,
    showsHidden: row.showsHidden,
    hidesScores: row.hidesScores,
    plain: row.plain,
    open: row.open,
    wanted: row.wanted ?? 0,
  };
  // Why is the caller's to say (lib/label/desk.ts), from `desk`.
  if (!desk.found || !desk.member || desk.goldRate > 0 || !desk.plain || !desk.open)
    return { label: { stored: false, reason: "the queue's check let nothing be written" }, next: null, desk };
  const quota = quotaOf(row);
  const next =
    row.nextLeftIsA !== null && row.id != null
      ? { itemId: row.id, leftIsA: row.nextLeftIsA, content: contentOf(row as ItemRow) }
      : null;
  if (row.labelId !== null)
    return {
      label: {
        stored: true,
        labelId: row.labelId,
        duplicate: false,
        mine: row.mine,
        given: row.given,
        left: row.left,
        ...quota,
      },
      next,
      desk,
    };
  if (row.earlierId !== null) {
    // A resend keeps the first choice, and says which.
    const choice = row.earlierChoice!;
    const side: Side =
      choice === "a"
        ? row.earlierLeftIsA
          ? "left"
          : "right"
        : choice === "b"
          ? row.earlierLeftIsA
            ? "right"
            : "left"
          : (choice as Side);
    return {
      label: {
        stored: true,
        labelId: row.earlierId,
        duplicate: true,
        mine: row.mine,
        given: row.given,
        left: row.left,
        kept: { side, choice },
        ...quota,
      },
      next,
      desk,
    };
  }
  if (!row.assigned) {
    if (row.itemQueueId !== label.queueId)
      return {
        label: { stored: false, reason: `pair ${label.itemId} is not a pair of this queue: nothing was stored` },
        next: null,
        desk,
      };
    return {
      label: { stored: false, reason: "this pair is not assigned to you (or you skipped it)" },
      next: null,
      desk,
    };
  }
  return {
    label: { stored: false, reason: "your hold on this pair ran out and someone else took it" },
    next: null,
    desk,
  };
}
