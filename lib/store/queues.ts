import type { Prisma, PrismaClient } from "../db/generated/client";
import type { TestCase } from "../colbench/tasks";
import type { Benchmark } from "../benchmarks";
import { benchmarkToWrite, knownBenchmark, storedBenchmark } from "./benchmark-names";

// Labelling queues: making one from a source's pairs, listing them with their progress, and what
// one pair holds for the labelling page (the page's view picks from it what a person may see).

export type Choice = "a" | "b" | "tie" | "both_bad";
export const CHOICES: readonly Choice[] = ["a", "b", "tie", "both_bad"];

export interface NewQueueItem {
  aRunId: number;
  bRunId: number;
  aEpisodeId?: number;
  bEpisodeId?: number;
  aCandidateId?: number;
  bCandidateId?: number;
  taskId: number;
  sourceChoice: Choice | null;
  gold: Choice | null;
  /** Why the gold answer is the answer (a training queue shows it once the pair is labelled). */
  goldReason?: string | null;
  params?: Record<string, unknown>;
}

export interface NewQueue {
  name: string;
  kind: "trajectory" | "turn";
  benchmark: Benchmark;
  instructions: string;
  overlap: number;
  goldRate: number;
  /** Gold that acts (lib/label/gold.ts): the accuracy below which a member is paused, after goldMinimum gold labels. */
  goldThreshold?: number | null;
  goldMinimum?: number;
  showsHidden: boolean;
  /** Its desk shows no automatic scores (lib/label/views.ts). */
  hidesScores: boolean;
  /** Training: a labelled gold pair is followed by whether it matched and why (lib/label/training.ts). */
  trainingMode?: boolean;
  /** What a label holds beyond the choice, as stored (lib/label/schema.ts; `{}`: nothing). */
  labelSchema?: Record<string, unknown>;
  /** The most non-gold pairs one person labels (Queue.quota); null or absent: no cap. */
  quota?: number | null;
  source: Record<string, unknown>;
  memberIds: number[];
  items: NewQueueItem[];
}

/** Stores a queue, its items, one slot per wanted label of each non-gold item, and its members. */
export async function insertQueue(
  prisma: PrismaClient,
  queue: NewQueue,
): Promise<{ id: number; items: number; gold: number; slots: number }> {
  const existing = await prisma.queue.findUnique({ where: { name: queue.name }, select: { id: true } });
  if (existing) throw new Error(`name: a queue named "${queue.name}" exists already`);
  return prisma.$transaction(
    async (tx) => {
      const { id } = await tx.queue.create({
        data: {
          name: queue.name,
          kind: queue.kind,
          benchmark: benchmarkToWrite(queue.benchmark),
          instructions: queue.instructions,
          overlap: queue.overlap,
          goldRate: queue.goldRate,
          goldThreshold: queue.goldThreshold ?? null,
          goldMinimum: queue.goldMinimum ?? 3,
          showsHidden: queue.showsHidden,
          hidesScores: queue.hidesScores,
          labelSchema: (queue.labelSchema ?? {}) as Prisma.InputJsonValue,
          source: queue.source as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
      const rows: Prisma.QueueItemCreateManyInput[] = queue.items.map(({ goldReason: _reason, ...item }, ordinal) => ({
        queueId: id,
        ordinal,
        ...item,
        params: (item.params ?? undefined) as Prisma.InputJsonValue | undefined,
      }));
      for (let i = 0; i < rows.length; i += 1000) await tx.queueItem.createMany({ data: rows.slice(i, i + 1000) });
      if (queue.quota != null) await tx.$executeRaw`UPDATE "Queue" SET "quota" = ${queue.quota} WHERE "id" = ${id}`;
      await setTrainingColumns(tx, id, queue.trainingMode ?? false, queue.items, 0);
      const slots = await tx.$executeRaw`
        INSERT INTO "QueueSlot" ("queueId", "itemId", "ordinal", "n")
        SELECT i."queueId", i."id", i."ordinal", g.n
          FROM "QueueItem" i CROSS JOIN generate_series(0, ${queue.overlap - 1}) AS g(n)
         WHERE i."queueId" = ${id} AND i."gold" IS NULL`;
      if (queue.memberIds.length)
        await tx.queueMember.createMany({
          data: queue.memberIds.map((userId) => ({ queueId: id, userId })),
          skipDuplicates: true,
        });
      return { id, items: rows.length, gold: rows.filter((r) => r.gold).length, slots };
    },
    { timeout: 120_000 },
  );
}

export async function addQueueMembers(prisma: PrismaClient, queueId: number, userIds: number[]): Promise<number> {
  return (
    await prisma.queueMember.createMany({ data: userIds.map((userId) => ({ queueId, userId })), skipDuplicates: true })
  ).count;
}

/** Closes, archives or opens a queue again; false when there is no such queue. */
export async function setQueueState(
  prisma: PrismaClient,
  queueId: number,
  state: "open" | "closed" | "archived",
): Promise<boolean> {
  // A queue closed (or archived) earlier keeps the time it was.
  const changed = await prisma.$executeRaw`
    UPDATE "Queue" SET
      "closedAt" = CASE WHEN ${state} = 'open' THEN NULL ELSE coalesce("closedAt", now() AT TIME ZONE 'UTC') END,
      "archivedAt" = CASE WHEN ${state} = 'archived' THEN coalesce("archivedAt", now() AT TIME ZONE 'UTC') ELSE NULL END
     WHERE "id" = ${queueId}`;
  return changed > 0;
}

export async function setQueueInstructions(
  prisma: PrismaClient,
  queueId: number,
  instructions: string,
): Promise<boolean> {
  return (await prisma.queue.updateMany({ where: { id: queueId }, data: { instructions } })).count > 0;
}

/**
 * Sets the most non-gold pairs one person labels in the queue (null: no cap); false when there is
 * no such queue. Lowering it below what someone has labelled takes nothing back: they are handed no more.
 */
export async function setQueueQuota(prisma: PrismaClient, queueId: number, quota: number | null): Promise<boolean> {
  if (quota !== null && (!Number.isSafeInteger(quota) || quota < 1))
    throw new Error(`quota: ${quota} is not a whole number of pairs of at least 1 (or none, for no cap)`);
  return (await prisma.$executeRaw`UPDATE "Queue" SET "quota" = ${quota} WHERE "id" = ${queueId}`) > 0;
}

/**
 * Takes people off a queue: their labels stay; the pairs they held unlabelled go back to the free
 * slots, so others can take them now rather than when the lease lapses.
 */
export async function removeQueueMembers(
  prisma: PrismaClient,
  queueId: number,
  userIds: number[],
): Promise<{ removed: number; released: number }> {
  return prisma.$transaction(async (tx) => {
    const removed = (await tx.queueMember.deleteMany({ where: { queueId, userId: { in: userIds } } })).count;
    const released = (
      await tx.queueSlot.updateMany({
        where: { queueId, userId: { in: userIds }, labelled: false },
        data: { userId: null, leaseUntil: null },
      })
    ).count;
    return { removed, released };
  });
}

/**
 * The columns a migration added after the generated client's (trainingMode, goldReason), written in
 * SQL so the items' ordinals place each reason: `first` is the ordinal of `items[0]`.
 */
export async function setTrainingColumns(
  tx: Prisma.TransactionClient,
  queueId: number,
  trainingMode: boolean,
  items: NewQueueItem[],
  first: number,
): Promise<void> {
  if (trainingMode) await tx.$executeRaw`UPDATE "Queue" SET "trainingMode" = true WHERE "id" = ${queueId}`;
  const reasons = items.flatMap((item, i) =>
    item.goldReason ? [{ ordinal: first + i, reason: item.goldReason }] : [],
  );
  if (!reasons.length) return;
  await tx.$executeRaw`
    UPDATE "QueueItem" i SET "goldReason" = g."reason"
      FROM unnest(${reasons.map((r) => r.ordinal)}::int[], ${reasons.map((r) => r.reason)}::text[]) AS g("ordinal", "reason")
     WHERE i."queueId" = ${queueId} AND i."ordinal" = g."ordinal"`;
}

/** Deletes a queue with its pairs, slots, assignments and labels (the caller exports the labels first). */
export async function deleteQueue(prisma: PrismaClient, queueId: number): Promise<boolean> {
  return (await prisma.queue.deleteMany({ where: { id: queueId } })).count > 0;
}

export interface QueueRow {
  id: number;
  name: string;
  kind: "trajectory" | "turn";
  benchmark: Benchmark;
  instructions: string;
  overlap: number;
  goldRate: number;
  goldThreshold: number | null;
  goldMinimum: number;
  showsHidden: boolean;
  hidesScores: boolean;
  /** As stored; lib/label/schema.ts parses it. */
  labelSchema: unknown;
  source: unknown;
  createdAt: Date;
  /** Closed: nothing handed out or labelled any more; archived: closed and left out of lists. */
  closedAt: Date | null;
  /** Training: gold pairs are followed by whether the label matched, and why (lib/label/training.ts). */
  trainingMode: boolean;
  /** The most non-gold pairs one person labels; null: no cap. */
  quota: number | null;
  archivedAt: Date | null;
  memberIds: number[];
  /** Who reviews its labels and decides its split pairs (findQueue sets it). */
  reviewerIds?: number[];
  /** Labels wanted: one per slot (overlap × non-gold pairs). */
  wanted: number;
}

const queueRow = {
  id: true,
  name: true,
  kind: true,
  benchmark: true,
  instructions: true,
  overlap: true,
  goldRate: true,
  goldThreshold: true,
  goldMinimum: true,
  showsHidden: true,
  hidesScores: true,
  labelSchema: true,
  source: true,
  createdAt: true,
  closedAt: true,
  archivedAt: true,
  members: { select: { userId: true } },
} as const;

/** A queue by id, or by name when the text is not a number (one statement: the desk reads it per request). */
export async function findQueue(prisma: PrismaClient, nameOrId: string | number): Promise<QueueRow | null> {
  const byId = typeof nameOrId === "number" || /^\d+$/.test(nameOrId);
  if (byId && !Number.isSafeInteger(Number(nameOrId))) return null;
  const rows = await prisma.$queryRawUnsafe<Array<Omit<QueueRow, "benchmark"> & { benchmark: string }>>(
    `SELECT q."id", q."name", q."kind"::text AS "kind", q."benchmark"::text AS "benchmark", q."instructions", q."overlap", q."goldRate", q."goldThreshold", q."goldMinimum",
            q."showsHidden", q."hidesScores", q."trainingMode", q."quota", q."labelSchema", q."source", q."createdAt", q."closedAt", q."archivedAt",
            ARRAY(SELECT m."userId" FROM "QueueMember" m WHERE m."queueId" = q."id" ORDER BY m."userId") AS "memberIds",
            ARRAY(SELECT r."userId" FROM "QueueReviewer" r WHERE r."queueId" = q."id" ORDER BY r."userId") AS "reviewerIds",
            q."slots" AS "wanted"
       FROM "Queue" q WHERE ${byId ? `q."id" = $1::int` : `q."name" = $1`}`,
    byId ? Number(nameOrId) : nameOrId,
  );
  const row = rows[0];
  return row ? { ...row, benchmark: storedBenchmark(row.benchmark, `queue ${row.name}`) } : null;
}

export interface QueueSummary extends QueueRow {
  items: number;
  gold: number;
  /** Labels given over non-gold items. */
  given: number;
  labels: number;
  members: Array<{ id: number; name: string }>;
}

/** Queues with their progress; with `memberId`, only the ones that person belongs to. */
export async function listQueues(
  prisma: PrismaClient,
  options: { memberId?: number; archived?: boolean } = {},
): Promise<QueueSummary[]> {
  const queues = await prisma.queue.findMany({
    // Queues of a benchmark this studio does not know are not listed (lib/store/benchmark-names.ts).
    where: {
      benchmark: knownBenchmark(),
      ...(options.archived ? {} : { archivedAt: null }),
      ...(options.memberId === undefined ? {} : { members: { some: { userId: options.memberId } } }),
    },
    orderBy: { id: "desc" },
    select: { ...queueRow, members: { select: { userId: true, user: { select: { name: true } } } } },
  });
  if (!queues.length) return [];
  const ids = queues.map((q) => q.id);
  const counts = await prisma.$queryRaw<
    Array<{
      queueId: number;
      items: number;
      gold: number;
      wanted: number;
      given: number;
      labels: number;
      trainingMode: boolean;
      quota: number | null;
    }>
  >`
    SELECT q."id" AS "queueId", q."trainingMode", q."quota",
           (SELECT count(*) FROM "QueueItem" i WHERE i."queueId" = q."id")::int AS "items",
           (SELECT count(*) FROM "QueueItem" i WHERE i."queueId" = q."id" AND i."gold" IS NOT NULL)::int AS "gold",
           q."slots" AS "wanted",
           q."labelledSlots" AS "given",
           (SELECT count(*) FROM "Label" l WHERE l."queueId" = q."id")::int AS "labels"
      FROM "Queue" q WHERE q."id" = ANY(${ids}::int[])`;
  const byId = new Map(counts.map((c) => [c.queueId, c]));
  return queues.map(({ members, ...q }) => {
    const c = byId.get(q.id)!;
    return {
      ...q,
      benchmark: storedBenchmark(q.benchmark, `queue ${q.name}`),
      memberIds: members.map((m) => m.userId),
      members: members.map((m) => ({ id: m.userId, name: m.user.name })),
      trainingMode: c.trainingMode,
      quota: c.quota,
      items: c.items,
      gold: c.gold,
      wanted: c.wanted,
      given: c.given,
      labels: c.labels,
    };
  });
}

// ---- What queues are made from ----

export interface EpisodeRefRow {
  id: number;
  runId: number;
  taskId: number;
  sample: number;
  reward: number | null;
}

/** Finished episodes of a run, in task and sample order. */
export async function doneEpisodes(prisma: PrismaClient, runId: number): Promise<EpisodeRefRow[]> {
  const rows = await prisma.episode.findMany({
    where: { runId, status: "done" },
    orderBy: [{ taskId: "asc" }, { sample: "asc" }],
    select: { id: true, runId: true, taskId: true, sample: true, reward: true },
  });
  return rows.map((r) => ({ ...r, runId: r.runId! }));
}

export async function episodeRefs(prisma: PrismaClient, ids: number[]): Promise<Map<number, EpisodeRefRow>> {
  const rows = await prisma.episode.findMany({
    where: { id: { in: ids } },
    select: { id: true, runId: true, taskId: true, sample: true, reward: true },
  });
  return new Map(rows.map((r) => [r.id, { ...r, runId: r.runId! }]));
}

export interface CandidateRefRow {
  id: number;
  turnId: number;
  index: number;
  episodeId: number;
  runId: number;
  taskId: number;
  advantage: number | null;
}

export async function candidateRefs(prisma: PrismaClient, ids: number[]): Promise<Map<number, CandidateRefRow>> {
  const rows = await prisma.candidate.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      turnId: true,
      index: true,
      advantage: true,
      turn: { select: { episodeId: true, episode: { select: { runId: true, taskId: true } } } },
    },
  });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        turnId: r.turnId,
        index: r.index,
        advantage: r.advantage,
        episodeId: r.turn.episodeId,
        runId: r.turn.episode.runId!,
        taskId: r.turn.episode.taskId,
      },
    ]),
  );
}

// ---- One pair's content ----

export interface ItemTurn {
  index: number;
  role: "agent" | "simulator";
  content: string;
  html: string | null;
  renderId: string | null;
}

export interface ItemEpisode {
  answer: string | null;
  reward: number | null;
  details: unknown;
  turns: ItemTurn[];
}

export interface ItemContent {
  id: number;
  queueId: number;
  kind: "trajectory" | "turn";
  benchmark: Benchmark;
  taskId: number;
  gold: Choice | null;
  task: { problemDescription: string; groundTruth: string; testCases: TestCase[] | null };
  /** Trajectory pairs: the two episodes. */
  episodes?: { a: ItemEpisode; b: ItemEpisode };
  /** Turn pairs: the dialogue before the turn, and the two candidate turns. */
  turn?: { index: number; context: ItemTurn[]; a: string; b: string };
}

// One statement for a pair's whole content: the labelling desk loads one per label, and a Prisma
// query with nested relations costs a round trip per relation.
const turnsJson = (where: string) =>
  `COALESCE((SELECT json_agg(json_build_object('index', u."index", 'role', u."role", 'content', u."content", 'html', u."html", 'renderId', u."renderId") ORDER BY u."index") FROM "Turn" u WHERE ${where}), '[]'::json)`;
const episodeJson = (column: string) =>
  `(SELECT json_build_object('answer', e."answer", 'reward', e."reward", 'details', e."details", 'turns', ${turnsJson(`u."episodeId" = e."id"`)}) FROM "Episode" e WHERE e."id" = i."${column}")`;

/** A pair's whole content, for the item whose id `id` names (a parameter or a column). */
export const itemSql = (id: string) => `
  SELECT i."id", i."queueId", i."taskId", i."gold"::text AS "gold", q."kind"::text AS "kind", q."benchmark"::text AS "benchmark",
         t."problemDescription", t."groundTruth", t."testCases",
         ${episodeJson("aEpisodeId")} AS "aEpisode", ${episodeJson("bEpisodeId")} AS "bEpisode",
         ca."text" AS "aText", cb."text" AS "bText", ct."index" AS "turnIndex",
         CASE WHEN ct."id" IS NULL THEN NULL ELSE ${turnsJson(`u."episodeId" = ct."episodeId" AND u."index" < ct."index"`)} END AS "context"
    FROM "QueueItem" i
    JOIN "Queue" q ON q."id" = i."queueId"
    JOIN "Task" t ON t."id" = i."taskId"
    LEFT JOIN "Candidate" ca ON ca."id" = i."aCandidateId"
    LEFT JOIN "Candidate" cb ON cb."id" = i."bCandidateId"
    LEFT JOIN "Turn" ct ON ct."id" = ca."turnId"
   WHERE i."id" = ${id}`;

const ITEM_SQL = itemSql("$1");

export interface ItemRow {
  id: number;
  queueId: number;
  taskId: number;
  gold: Choice | null;
  kind: "trajectory" | "turn";
  /** As stored; `contentOf` narrows it. */
  benchmark: string;
  problemDescription: string;
  groundTruth: string;
  testCases: TestCase[] | null;
  aEpisode: ItemEpisode | null;
  bEpisode: ItemEpisode | null;
  aText: string | null;
  bText: string | null;
  turnIndex: number | null;
  context: ItemTurn[] | null;
}

/** Everything one pair shows; hidden information included (the page's view decides what goes out). */
export async function itemContent(prisma: PrismaClient, itemId: number): Promise<ItemContent | null> {
  const [row] = await prisma.$queryRawUnsafe<ItemRow[]>(ITEM_SQL, itemId);
  return row ? contentOf(row) : null;
}

export function contentOf(row: ItemRow): ItemContent {
  const content: ItemContent = {
    id: row.id,
    queueId: row.queueId,
    kind: row.kind,
    benchmark: storedBenchmark(row.benchmark, `queue ${row.queueId}`),
    taskId: row.taskId,
    gold: row.gold,
    task: { problemDescription: row.problemDescription, groundTruth: row.groundTruth, testCases: row.testCases },
  };
  if (row.aEpisode && row.bEpisode) content.episodes = { a: row.aEpisode, b: row.bEpisode };
  if (row.aText !== null && row.bText !== null && row.turnIndex !== null)
    content.turn = { index: row.turnIndex, context: row.context ?? [], a: row.aText, b: row.bText };
  return content;
}
