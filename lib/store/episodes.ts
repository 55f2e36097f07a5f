import type { PrismaClient, Prisma, Turn } from "../db/generated/client";
import type { HiddenTask } from "../colbench/roles";
import type { TurnRecord } from "../colbench/episode";
import type { TestCase } from "../colbench/tasks";
import { describeFailure, failureOf, waitOf, type EpisodeFailure, type ServerWait } from "../colbench/failure";

// Storage of runs, episodes and turns. Every write is small and immediate: a turn is in the
// database before the episode takes its next step.

export async function ensureEpisodes(
  prisma: PrismaClient,
  runId: number,
  taskIds: number[],
  bestOf: number,
  humanSimulated = false,
): Promise<number> {
  const data: Prisma.EpisodeCreateManyInput[] = [];
  for (const taskId of taskIds)
    for (let sample = 0; sample < bestOf; sample++) data.push({ runId, taskId, sample, humanSimulated });
  let created = 0;
  // (runId, taskId, sample) is unique, so making them again is a no-op.
  for (let i = 0; i < data.length; i += 1000) {
    created += (await prisma.episode.createMany({ data: data.slice(i, i + 1000), skipDuplicates: true })).count;
  }
  return created;
}

export interface PendingEpisode {
  id: number;
  taskId: number;
  sample: number;
  /** pending: never started, so it has no turns to load. */
  status: "pending" | "running" | "failed" | "done";
  task: HiddenTask;
}

/** Episodes of a run that are not done yet (pending, interrupted while running, or failed). */
export async function unfinishedEpisodes(
  prisma: PrismaClient,
  runId: number,
  only?: number[],
): Promise<PendingEpisode[]> {
  const rows = await prisma.episode.findMany({
    where: { runId, status: { not: "done" }, ...(only ? { id: { in: only } } : {}) },
    orderBy: [{ taskId: "asc" }, { sample: "asc" }],
    select: {
      id: true,
      taskId: true,
      sample: true,
      status: true,
      task: {
        select: {
          benchmark: true,
          problemDescription: true,
          groundTruth: true,
          hiddenInformation: true,
          testCases: true,
        },
      },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    taskId: row.taskId,
    sample: row.sample,
    status: row.status,
    task: { ...row.task, testCases: (row.task.testCases as TestCase[] | null) ?? null },
  }));
}

/** One stored turn; live views read it when told that it exists. */
export async function loadTurn(prisma: PrismaClient, episodeId: number, index: number): Promise<TurnRecord | null> {
  const row = await prisma.turn.findUnique({ where: { episodeId_index: { episodeId, index } } });
  return row ? turnOf(row) : null;
}

export async function loadTurns(prisma: PrismaClient, episodeId: number): Promise<TurnRecord[]> {
  const rows = await prisma.turn.findMany({ where: { episodeId }, orderBy: { index: "asc" } });
  return rows.map(turnOf);
}

function turnOf(row: Turn): TurnRecord {
  return {
    index: row.index,
    role: row.role,
    content: row.content,
    rawOutput: row.rawOutput,
    prompt: row.prompt ?? undefined,
    html: row.html,
    renderId: row.renderId,
    tokenLogprobs: (row.tokenLogprobs as TurnRecord["tokenLogprobs"]) ?? null,
    usage: (row.usage as TurnRecord["usage"]) ?? null,
    ...(row.waitMs !== null ? { waitMs: row.waitMs } : {}),
    advantage: row.advantage,
  };
}

/** How long the turn took to come (a model's answer, a person's move), whole milliseconds; null when not measured. */
const turnWaitMs = (turn: TurnRecord) =>
  turn.waitMs === undefined || !Number.isFinite(turn.waitMs) ? null : Math.round(turn.waitMs);

// PostgreSQL's text and jsonb hold no NUL character, which a model server may send and a byte-level tokenizer
// may produce: it is stored as U+FFFD, so the turn is kept instead of failing its episode at the insert.
const storable = (text: string) => text.replaceAll("\u0000", "\uFFFD");
const storableOrNull = (text: string | null | undefined) =>
  text === undefined || text === null ? null : storable(text);
const jsonText = (value: unknown) =>
  value === undefined || value === null
    ? null
    : JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? storable(v) : v));

// The three writes below run once per turn or episode of every run. They are plain SQL because
// each Prisma query costs about 1 ms of CPU to plan, twice what the insert itself costs
// (bench/orchestration.ts); the columns are the Turn and Episode models' own.

/**
 * A write made for a claim that no longer holds: another process took the episode over (this one
 * was paused or cut off past its lease) or it ended. Nothing was changed; the caller drops the
 * episode, which is not a failure of the episode.
 */
export class ClaimLost extends Error {
  constructor(
    readonly episodeId: number,
    readonly claim: number,
    what: string,
  ) {
    super(`episode ${episodeId}: claim ${claim} no longer holds (${what})`);
    this.name = "ClaimLost";
  }
}

/** A unique-index conflict (23505), however the driver adapter wraps it. */
function isUniqueViolation(error: unknown): boolean {
  for (
    let e = error as
        | {
            code?: unknown;
            meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } };
            cause?: unknown;
          }
        | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === "23505" || e.code === "P2002" || e.meta?.code === "23505") return true;
    const cause = e.meta?.driverAdapterError?.cause;
    if (cause?.originalCode === "23505" || cause?.kind === "UniqueConstraintViolation") return true;
  }
  return /23505|unique constraint/i.test(String((error as Error | undefined)?.message ?? ""));
}

/**
 * Stores a turn. With `claim` (the token `claimEpisode` returned) the insert happens only while that
 * claim holds, checked in the same statement: the episode row is locked for it, so a takeover waits
 * for the insert to commit or the insert sees the new token and writes nothing (ClaimLost). Without
 * it the caller owns the episode outright (an import, a test).
 */
export async function appendTurn(
  prisma: PrismaClient,
  episodeId: number,
  turn: TurnRecord,
  claim?: number,
): Promise<void> {
  if (claim === undefined) {
    await prisma.$executeRaw`
      INSERT INTO "Turn" ("episodeId", "index", "role", "content", "rawOutput", "prompt", "html", "renderId", "tokenLogprobs", "usage", "waitMs")
      VALUES (${episodeId}, ${turn.index}, ${turn.role}::"TurnRole", ${storable(turn.content)}, ${storableOrNull(turn.rawOutput)},
              ${jsonText(turn.prompt)}::jsonb, ${storableOrNull(turn.html)}, ${turn.renderId ?? null},
              ${jsonText(turn.tokenLogprobs)}::jsonb, ${jsonText(turn.usage)}::jsonb, ${turnWaitMs(turn)}::int)`;
    return;
  }
  let written: number;
  try {
    written = await prisma.$executeRaw`
      WITH held AS (
        SELECT "id" FROM "Episode" WHERE "id" = ${episodeId} AND "claimGen" = ${claim} AND "status" = 'running' FOR NO KEY UPDATE
      )
      INSERT INTO "Turn" ("episodeId", "index", "role", "content", "rawOutput", "prompt", "html", "renderId", "tokenLogprobs", "usage", "waitMs")
      SELECT held."id", ${turn.index}, ${turn.role}::"TurnRole", ${storable(turn.content)}, ${storableOrNull(turn.rawOutput)},
             ${jsonText(turn.prompt)}::jsonb, ${storableOrNull(turn.html)}, ${turn.renderId ?? null},
             ${jsonText(turn.tokenLogprobs)}::jsonb, ${jsonText(turn.usage)}::jsonb, ${turnWaitMs(turn)}::int
        FROM held`;
  } catch (error) {
    // The index is taken: someone holding a later claim stored it first.
    if (isUniqueViolation(error)) throw new ClaimLost(episodeId, claim, `turn ${turn.index} is stored already`);
    throw error;
  }
  if (written !== 1) throw new ClaimLost(episodeId, claim, `turn ${turn.index} not stored`);
}

/**
 * Takes an episode to play, in one statement: it succeeds for one claimer only. An episode is free
 * when it is pending or failed, or running under a claim that lapsed (its process died) or is the
 * caller's own. Returns the claim's fencing token (every write for it names it), or null when
 * another holds the episode or it is done.
 */
export async function claimEpisode(
  prisma: PrismaClient,
  episodeId: number,
  owner: string,
  leaseMs: number,
): Promise<number | null> {
  const rows = await prisma.$queryRaw<Array<{ claimGen: number }>>`
    UPDATE "Episode"
       SET "status" = 'running'::"EpisodeStatus", "claimedBy" = ${owner}, "claimGen" = "claimGen" + 1, "waitingFor" = NULL,
           "leaseUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseMs / 1000}),
           "startedAt" = COALESCE("startedAt", (now() AT TIME ZONE 'UTC'))
     WHERE "id" = ${episodeId}
       AND ("status" IN ('pending', 'failed')
            OR ("status" = 'running' AND ("claimedBy" IS NULL OR "leaseUntil" IS NULL OR "claimedBy" = ${owner} OR "leaseUntil" < (now() AT TIME ZONE 'UTC'))))
    RETURNING "claimGen"`;
  return rows.length === 1 ? rows[0]!.claimGen : null;
}

export interface HeldClaim {
  episodeId: number;
  claim: number;
}

/**
 * Keeps claims alive; a process renews them well inside the lease while it plays. Only claims whose
 * token still matches are renewed: the ids returned are those still held, and any other was lost.
 */
export async function renewClaims(prisma: PrismaClient, claims: HeldClaim[], leaseMs: number): Promise<Set<number>> {
  if (!claims.length) return new Set();
  const rows = await prisma.$queryRaw<Array<{ id: number }>>`
    UPDATE "Episode" AS e SET "leaseUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseMs / 1000})
      FROM unnest(${claims.map((c) => c.episodeId)}::int[], ${claims.map((c) => c.claim)}::int[]) AS v(id, gen)
     WHERE e."id" = v.id AND e."claimGen" = v.gen AND e."status" = 'running' AND e."leaseUntil" IS NOT NULL
    RETURNING e."id"`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Says (or, with null, unsays) that the held episodes wait for a model server; claims that no longer
 * hold are left alone. Returns the ids it changed: only those are the caller's to tell of.
 */
export async function setWaiting(
  prisma: PrismaClient,
  claims: HeldClaim[],
  wait: ServerWait | null,
): Promise<number[]> {
  if (!claims.length) return [];
  const rows = await prisma.$queryRaw<Array<{ id: number }>>`
    UPDATE "Episode" AS e SET "waitingFor" = ${jsonText(wait)}::jsonb
      FROM unnest(${claims.map((c) => c.episodeId)}::int[], ${claims.map((c) => c.claim)}::int[]) AS v(id, gen)
     WHERE e."id" = v.id AND e."claimGen" = v.gen AND e."status" = 'running'
    RETURNING e."id"`;
  return rows.map((r) => r.id);
}

/**
 * Lets go of the caller's claims on a run's episodes (it stopped): anyone may take them at once.
 * What they waited for goes too; whoever plays them next says what it waits for.
 */
export async function releaseClaims(prisma: PrismaClient, runId: number, owner: string): Promise<number> {
  return prisma.$executeRaw`
    UPDATE "Episode" SET "leaseUntil" = NULL, "waitingFor" = NULL WHERE "runId" = ${runId} AND "claimedBy" = ${owner} AND "status" = 'running'`;
}

/** Lets go of one episode the caller holds, leaving it running: the next claimer continues it. */
export async function releaseClaim(prisma: PrismaClient, episodeId: number, claim: number): Promise<void> {
  const released = await prisma.$executeRaw`
    UPDATE "Episode" SET "leaseUntil" = NULL, "waitingFor" = NULL WHERE "id" = ${episodeId} AND "claimGen" = ${claim} AND "status" = 'running'`;
  if (released !== 1) throw new ClaimLost(episodeId, claim, "not released");
}

/** The processes holding claims now (names as `processOwner()` writes them: host:pid:nonce). */
export async function claimHolders(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ claimedBy: string }>>`
    SELECT DISTINCT "claimedBy" FROM "Episode" WHERE "status" = 'running' AND "leaseUntil" IS NOT NULL AND "claimedBy" IS NOT NULL`;
  return rows.map((row) => row.claimedBy);
}

/**
 * Lets the claims of the named holders lapse now rather than when their lease runs out. Embedded
 * PGlite is reached only from its own machine, so a holder whose pid has ended there is known dead.
 */
export async function lapseClaimsOf(prisma: PrismaClient, holders: string[]): Promise<number> {
  if (!holders.length) return 0;
  return prisma.$executeRaw`UPDATE "Episode" SET "leaseUntil" = NULL WHERE "status" = 'running' AND "claimedBy" = ANY(${holders}::text[])`;
}

export interface EpisodeClaim {
  id: number;
  status: "pending" | "running" | "done" | "failed";
  claimedBy: string | null;
  leaseUntil: Date | null;
}

export async function episodeClaims(prisma: PrismaClient, episodeIds: number[]): Promise<EpisodeClaim[]> {
  return prisma.episode.findMany({
    where: { id: { in: episodeIds } },
    select: { id: true, status: true, claimedBy: true, leaseUntil: true },
  });
}

/** Every claim on a run's episodes, to tell whether some process plays it now. */
export async function runClaims(prisma: PrismaClient, runId: number): Promise<EpisodeClaim[]> {
  return prisma.episode.findMany({
    where: { runId, claimedBy: { not: null } },
    select: { id: true, status: true, claimedBy: true, leaseUntil: true },
  });
}

/** Ends an episode with its score; with `claim`, only while that claim holds (else ClaimLost, nothing written). */
export async function finishEpisode(
  prisma: PrismaClient,
  episodeId: number,
  result: { answer: string | null; reward: number; details: unknown },
  claim?: number,
): Promise<void> {
  const written = await prisma.$executeRaw`
    UPDATE "Episode" SET "status" = 'done'::"EpisodeStatus", "answer" = ${result.answer}, "reward" = ${result.reward},
           "details" = ${jsonText(result.details)}::jsonb, "endedAt" = (now() AT TIME ZONE 'UTC'), "leaseUntil" = NULL, "waitingFor" = NULL
    WHERE "id" = ${episodeId} AND (${claim ?? null}::int IS NULL OR ("claimGen" = ${claim ?? null}::int AND "status" = 'running'))`;
  if (claim !== undefined && written !== 1) throw new ClaimLost(episodeId, claim, "not finished");
}

/** Marks an episode failed with its reason; with `claim`, only while that claim holds (else ClaimLost). */
export async function failEpisode(
  prisma: PrismaClient,
  episodeId: number,
  failure: EpisodeFailure,
  claim?: number,
): Promise<void> {
  const details = JSON.stringify({ error: describeFailure(failure), failure });
  const written = await prisma.$executeRaw`
    UPDATE "Episode" SET "status" = 'failed'::"EpisodeStatus", "details" = ${details}::jsonb,
           "endedAt" = (now() AT TIME ZONE 'UTC'), "leaseUntil" = NULL, "waitingFor" = NULL
    WHERE "id" = ${episodeId} AND (${claim ?? null}::int IS NULL OR ("claimGen" = ${claim ?? null}::int AND "status" = 'running'))`;
  if (claim !== undefined && written !== 1) throw new ClaimLost(episodeId, claim, "not marked failed");
  if (claim === undefined && written !== 1) throw new Error(`no episode ${episodeId}`);
}

/** Why an episode failed, or null if it did not. */
export async function episodeFailure(prisma: PrismaClient, episodeId: number): Promise<EpisodeFailure | null> {
  const row = await prisma.episode.findUnique({ where: { id: episodeId }, select: { status: true, details: true } });
  return row?.status === "failed" ? failureOf(row.details) : null;
}

/** A run's failed episodes with their reasons, task by task. */
export async function runFailures(
  prisma: PrismaClient,
  runId: number,
): Promise<Array<{ episodeId: number; taskId: number; sample: number; failure: EpisodeFailure }>> {
  const rows = await prisma.episode.findMany({
    where: { runId, status: "failed" },
    orderBy: [{ taskId: "asc" }, { sample: "asc" }],
    select: { id: true, taskId: true, sample: true, details: true },
  });
  return rows.map((r) => ({
    episodeId: r.id,
    taskId: r.taskId,
    sample: r.sample,
    failure: failureOf(r.details) ?? { message: "no reason was recorded" },
  }));
}

export interface RunCounts {
  total: number;
  done: number;
  failed: number;
  running: number;
  pending: number;
}

export async function runCounts(prisma: PrismaClient, runId: number): Promise<RunCounts> {
  const groups = await prisma.episode.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  const counts: RunCounts = { total: 0, done: 0, failed: 0, running: 0, pending: 0 };
  for (const group of groups) {
    counts[group.status] = group._count._all;
    counts.total += group._count._all;
  }
  return counts;
}

export interface EpisodeRef {
  id: number;
  runId: number | null;
  status: "pending" | "running" | "done" | "failed";
  reward: number | null;
  /** While it runs: the model server it waits for, if one is down. */
  waitingFor: ServerWait | null;
}

/** The few fields a route needs to find an episode's run and state, without its dialogue. */
export async function episodeRef(prisma: PrismaClient, episodeId: number): Promise<EpisodeRef | null> {
  if (!Number.isSafeInteger(episodeId)) return null;
  const row = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: { id: true, runId: true, status: true, reward: true, waitingFor: true },
  });
  return row && { ...row, waitingFor: row.status === "running" ? waitOf(row.waitingFor) : null };
}

export async function firstEpisodeId(prisma: PrismaClient, runId: number): Promise<number | null> {
  return (
    (await prisma.episode.findFirst({ where: { runId }, orderBy: { id: "asc" }, select: { id: true } }))?.id ?? null
  );
}

/** Rewards of a run's finished episodes, task by task (for summaries and best-of-k). */
export async function doneRewards(
  prisma: PrismaClient,
  runId: number,
): Promise<Array<{ taskId: number; reward: number | null }>> {
  return prisma.episode.findMany({ where: { runId, status: "done" }, select: { taskId: true, reward: true } });
}
