import type { Prisma, PrismaClient } from "../db/generated/client";
import { setTrainingColumns, type Choice, type NewQueueItem } from "./queues";

// A queue's pairs after it is made: more pairs added at its end (with their slots), the sides it
// holds already (so a source's pairs are not added twice), and the lead's browser of its pairs with
// their labels, paged and ordered by the database.

/** A pair's two sides as one key, whichever side is a: episodes or candidates. */
export const pairKey = (item: {
  aEpisodeId?: number | null;
  bEpisodeId?: number | null;
  aCandidateId?: number | null;
  bCandidateId?: number | null;
}): string => {
  const a = `${item.aEpisodeId ?? ""}/${item.aCandidateId ?? ""}`;
  const b = `${item.bEpisodeId ?? ""}/${item.bCandidateId ?? ""}`;
  return a < b ? `${a}|${b}` : `${b}|${a}`;
};

/** The pair keys a queue holds. */
export async function queuePairKeys(prisma: PrismaClient, queueId: number): Promise<Set<string>> {
  const rows = await prisma.queueItem.findMany({
    where: { queueId },
    select: { aEpisodeId: true, bEpisodeId: true, aCandidateId: true, bCandidateId: true },
  });
  return new Set(rows.map(pairKey));
}

/**
 * Adds pairs at the end of a queue: each non-gold one gets the queue's overlap in slots, so the desk
 * hands them out after the ones there. The queue's row is locked while the ordinals are taken.
 */
export async function appendQueueItems(
  prisma: PrismaClient,
  queueId: number,
  items: NewQueueItem[],
): Promise<{ items: number; gold: number; slots: number }> {
  return prisma.$transaction(
    async (tx) => {
      const [queue] = await tx.$queryRaw<Array<{ overlap: number; next: number }>>`
        SELECT q."overlap", coalesce((SELECT max(i."ordinal") + 1 FROM "QueueItem" i WHERE i."queueId" = q."id"), 0)::int AS "next"
          FROM "Queue" q WHERE q."id" = ${queueId} FOR UPDATE`;
      if (!queue) throw new Error(`queue: no queue ${queueId}`);
      const rows: Prisma.QueueItemCreateManyInput[] = items.map(({ goldReason: _reason, ...item }, i) => ({
        queueId,
        ordinal: queue.next + i,
        ...item,
        params: (item.params ?? undefined) as Prisma.InputJsonValue | undefined,
      }));
      for (let i = 0; i < rows.length; i += 1000) await tx.queueItem.createMany({ data: rows.slice(i, i + 1000) });
      await setTrainingColumns(tx, queueId, false, items, queue.next);
      const slots = await tx.$executeRaw`
        INSERT INTO "QueueSlot" ("queueId", "itemId", "ordinal", "n")
        SELECT i."queueId", i."id", i."ordinal", g.n
          FROM "QueueItem" i CROSS JOIN generate_series(0, ${queue.overlap - 1}) AS g(n)
         WHERE i."queueId" = ${queueId} AND i."gold" IS NULL AND i."ordinal" >= ${queue.next}`;
      return { items: rows.length, gold: rows.filter((r) => r.gold).length, slots };
    },
    { timeout: 120_000 },
  );
}

/** One label as the lead's browser shows it (a and b are the pair's stored sides). */
export interface BrowsedLabel {
  user: string;
  choice: Choice;
  strength: string | null;
  comment: string | null;
  review: string | null;
  version: number;
}

export interface BrowsedItem {
  id: number;
  ordinal: number;
  taskId: number;
  gold: Choice | null;
  goldReason: string | null;
  sourceChoice: Choice | null;
  /** Labels wanted (its slots; 0 for a gold pair) and labels given. */
  wanted: number;
  labelCount: number;
  /** Distinct choices among its labels: more than one is a split pair. */
  choices: number;
  /** How many people passed on it, and how many of them flagged it broken. */
  skips: number;
  broken: number;
  lastLabelAt: Date | null;
  labels: BrowsedLabel[];
}

/** The columns the browser orders by: columns of the statement's `counted` step. */
export const ITEM_ORDERS = {
  ordinal: "ordinal",
  task: "taskId",
  gold: "gold",
  source: "sourceChoice",
  labels: "labelCount",
  split: "choices",
  skips: "skips",
  last: "lastLabelAt",
} as const;
export type ItemOrder = keyof typeof ITEM_ORDERS;

/** A page of a queue's pairs with their labels, in the order asked (ties in queue order). */
export async function browseQueueItems(
  prisma: PrismaClient,
  queueId: number,
  options: { order?: ItemOrder; dir?: "asc" | "desc"; offset?: number; limit?: number } = {},
): Promise<{ total: number; items: BrowsedItem[] }> {
  const column = ITEM_ORDERS[options.order ?? "ordinal"] ?? ITEM_ORDERS.ordinal;
  const order = `c."${column}" ${options.dir === "desc" ? "DESC" : "ASC"} NULLS LAST, c."ordinal"`;
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 50)), 100_000);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  // The page as one JSON text: rows with nested labels cost the driver more as objects. The labels'
  // JSON is built for the page's rows only.
  const [row] = await prisma.$queryRawUnsafe<Array<{ total: number; items: BrowsedItem[] | null }>>(
    `WITH counted AS (
       SELECT i."id", i."ordinal", i."taskId", i."gold"::text AS "gold", i."goldReason", i."sourceChoice"::text AS "sourceChoice",
              (SELECT count(*) FROM "QueueSlot" s WHERE s."itemId" = i."id")::int AS "wanted",
              (SELECT count(*) FROM "Label" l WHERE l."itemId" = i."id")::int AS "labelCount",
              (SELECT count(DISTINCT l."choice") FROM "Label" l WHERE l."itemId" = i."id")::int AS "choices",
              (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."skipped")::int AS "skips",
              (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."broken")::int AS "broken",
              (SELECT max(l."createdAt") FROM "Label" l WHERE l."itemId" = i."id") AS "lastLabelAt"
         FROM "QueueItem" i WHERE i."queueId" = $1
     ), page AS (
       SELECT c.* FROM counted c ORDER BY ${order} LIMIT $2 OFFSET $3
     )
     SELECT (SELECT count(*) FROM counted)::int AS "total",
            (SELECT json_agg(json_build_object(
                      'id', c."id", 'ordinal', c."ordinal", 'taskId', c."taskId", 'gold', c."gold", 'goldReason', c."goldReason",
                      'sourceChoice', c."sourceChoice", 'wanted', c."wanted", 'labelCount', c."labelCount", 'choices', c."choices",
                      'skips', c."skips", 'broken', c."broken", 'lastLabelAt', c."lastLabelAt",
                      'labels', COALESCE((SELECT json_agg(json_build_object('user', u."name", 'choice', l."choice", 'strength', l."strength",
                                                         'comment', l."comment", 'review', l."review", 'version', l."version")
                                                ORDER BY l."id")
                                           FROM "Label" l JOIN "User" u ON u."id" = l."userId" WHERE l."itemId" = c."id"), '[]'::json))
                    ORDER BY ${order})
               FROM page c) AS "items"`,
    queueId,
    limit,
    offset,
  );
  const items = (row?.items ?? []).map((item) => ({
    ...item,
    // A timestamp without a time zone comes out of json_build_object as text without one: it is UTC.
    lastLabelAt: item.lastLabelAt ? new Date(`${String(item.lastLabelAt as unknown as string)}Z`) : null,
  }));
  return { total: row?.total ?? 0, items };
}
