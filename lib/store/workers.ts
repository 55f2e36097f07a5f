import { Prisma, type PrismaClient } from "../db/generated/client";
// Episodes' wall times are averaged over those that ended within the charts' window (or all, when none did).
import { PACE_WINDOW_MS } from "./run-figures";

// `colbench worker` processes and the work queued for runs. Times are the database's clock (UTC),
// never a worker's: machines' clocks disagree, and a beat is judged stale against the same clock.

/** A job a worker holds now: enough for another worker to hand it back to the queue. */
export interface HeldJob {
  queue: string;
  id: string;
  runId: number;
}

export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  kinds: string[];
  concurrency: number;
  jobs: HeldJob[];
  finished: number;
  /** How often it beats: silent for two beats, it is shown stalled. */
  beatMs: number;
}

export interface WorkerRow extends WorkerBeat {
  inFlight: number;
  startedAt: Date;
  beatAt: Date;
  /** Milliseconds since its last beat, by the database's clock. */
  silentMs: number;
}

/** A worker silent for more than two of its beats: paused, cut off or dying; what it holds is not known. */
export const isStalled = (w: Pick<WorkerRow, "silentMs" | "beatMs">): boolean => w.silentMs > 2 * w.beatMs;

/** A worker says it is alive and what it holds (one statement, so a beat is cheap). */
export async function beatWorker(prisma: PrismaClient, beat: WorkerBeat): Promise<void> {
  const jobs = JSON.stringify(beat.jobs);
  await prisma.$executeRaw`
    INSERT INTO "Worker" ("id", "host", "pid", "kinds", "concurrency", "inFlight", "jobs", "finished", "startedAt", "beatAt", "beatMs")
    VALUES (${beat.id}, ${beat.host}, ${beat.pid}, ${beat.kinds}::text[], ${beat.concurrency}, ${beat.jobs.length}, ${jobs}::jsonb, ${beat.finished},
            (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'), ${Math.round(beat.beatMs)})
    ON CONFLICT ("id") DO UPDATE SET "inFlight" = EXCLUDED."inFlight", "jobs" = EXCLUDED."jobs", "finished" = EXCLUDED."finished",
           "beatAt" = EXCLUDED."beatAt"`;
}

/** A worker that stopped cleanly leaves the table. */
export async function removeWorker(prisma: PrismaClient, id: string): Promise<void> {
  await prisma.$executeRaw`DELETE FROM "Worker" WHERE "id" = ${id}`;
}

type RawWorker = Omit<WorkerRow, "jobs" | "silentMs"> & { jobs: unknown; silentMs: number | string };

const rowOf = (row: RawWorker): WorkerRow => ({
  ...row,
  jobs: (row.jobs as HeldJob[]) ?? [],
  silentMs: Number(row.silentMs),
});

export async function listWorkers(prisma: PrismaClient): Promise<WorkerRow[]> {
  const rows = await prisma.$queryRaw<RawWorker[]>`
    SELECT "id", "host", "pid", "kinds", "concurrency", "inFlight", "jobs", "finished", "startedAt", "beatAt", "beatMs",
           EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - "beatAt")) * 1000 AS "silentMs"
      FROM "Worker" ORDER BY "startedAt", "id"`;
  return rows.map(rowOf);
}

/**
 * Removes the workers silent for longer than `leaseMs` and returns them with the jobs they held.
 * One statement: of two workers that find the same dead one, only one gets its jobs to hand back.
 */
export async function reapWorkers(prisma: PrismaClient, leaseMs: number): Promise<WorkerRow[]> {
  const rows = await prisma.$queryRaw<RawWorker[]>`
    DELETE FROM "Worker" WHERE "beatAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${leaseMs / 1000})
    RETURNING "id", "host", "pid", "kinds", "concurrency", "inFlight", "jobs", "finished", "startedAt", "beatAt", "beatMs", 0 AS "silentMs"`;
  return rows.map(rowOf);
}

/** pg-boss keeps its jobs in its own schema; reading the count here keeps every query in lib/store. */
export async function queuedJobs(prisma: PrismaClient, runId: number): Promise<number> {
  if (!(await hasQueue(prisma))) return 0;
  const [row] = await prisma.$queryRaw<Array<{ n: bigint }>>`
    SELECT COUNT(*) AS "n" FROM pgboss.job WHERE "name" LIKE 'colbench-%' AND "state" IN ('created', 'retry') AND ("data"->>'runId')::int = ${runId}`;
  return Number(row?.n ?? 0);
}

/** Episodes of a run with a play job waiting or being worked, so enqueueing again adds none twice. */
export async function queuedEpisodes(prisma: PrismaClient, runId: number): Promise<number[]> {
  if (!(await hasQueue(prisma))) return [];
  const rows = await prisma.$queryRaw<Array<{ episodeId: number }>>`
    SELECT DISTINCT ("data"->>'episodeId')::int AS "episodeId" FROM pgboss.job
     WHERE "name" IN ('colbench-play', 'colbench-score') AND "state" IN ('created', 'retry', 'active') AND ("data"->>'runId')::int = ${runId}`;
  return rows.map((row) => row.episodeId);
}

/**
 * Active jobs that no live worker lists and that started more than `leaseMs` ago: their worker died
 * (its row was reaped, or it died between taking them and saying so). They go back to the queue.
 */
export async function orphanedJobs(
  prisma: PrismaClient,
  leaseMs: number,
): Promise<Array<{ queue: string; id: string }>> {
  if (!(await hasQueue(prisma))) return [];
  return prisma.$queryRaw<Array<{ queue: string; id: string }>>`
    SELECT j."name" AS "queue", j."id"::text AS "id" FROM pgboss.job j
     WHERE j."name" LIKE 'colbench-%' AND j."state" = 'active' AND j."started_on" < now() - make_interval(secs => ${leaseMs / 1000})
       AND NOT EXISTS (SELECT 1 FROM "Worker" w, jsonb_array_elements(w."jobs") held WHERE held->>'id' = j."id"::text)`;
}

async function hasQueue(prisma: PrismaClient): Promise<boolean> {
  const [row] = await prisma.$queryRaw<Array<{ job: string | null }>>`SELECT to_regclass('pgboss.job')::text AS "job"`;
  return Boolean(row?.job);
}

/** Jobs of every kind waiting on the run queue (null when no queue was ever made on this database). */
export async function queueDepth(prisma: PrismaClient): Promise<number | null> {
  if (!(await hasQueue(prisma))) return null;
  const [row] = await prisma.$queryRaw<
    Array<{ n: bigint }>
  >`SELECT COUNT(*) AS "n" FROM pgboss.job WHERE "name" LIKE 'colbench-%' AND "state" IN ('created', 'retry')`;
  return Number(row?.n ?? 0);
}

/** Jobs of a run still waiting on the queue, by queue (to cancel them when the run is stopped). */
export async function waitingJobsOfRun(
  prisma: PrismaClient,
  runId: number,
): Promise<Array<{ queue: string; id: string }>> {
  if (!(await hasQueue(prisma))) return [];
  return prisma.$queryRaw<Array<{ queue: string; id: string }>>`
    SELECT "name" AS "queue", "id"::text AS "id" FROM pgboss.job
     WHERE "name" LIKE 'colbench-%' AND "state" IN ('created', 'retry') AND ("data"->>'runId')::int = ${runId}`;
}

/**
 * Cancels a run's waiting jobs (a stopped run), in one statement that matches their state: a job a
 * worker fetched in the meantime is active and left alone (pg-boss's own cancel takes active jobs too).
 */
export async function cancelWaitingJobs(prisma: PrismaClient, runId: number): Promise<number> {
  if (!(await hasQueue(prisma))) return 0;
  return prisma.$executeRaw`
    UPDATE pgboss.job SET "state" = 'cancelled', "completed_on" = now()
     WHERE "name" LIKE 'colbench-%' AND "state" IN ('created', 'retry') AND ("data"->>'runId')::int = ${runId}`;
}

/** Removes every job of a deleted run from the queue, whatever its state. */
export async function deleteJobsOfRun(prisma: PrismaClient, runId: number): Promise<number> {
  if (!(await hasQueue(prisma))) return 0;
  return prisma.$executeRaw`DELETE FROM pgboss.job WHERE "name" LIKE 'colbench-%' AND ("data"->>'runId')::int = ${runId}`;
}

/** A job as one fetch of it holds it: pg-boss raises the retry count at every fetch after the first. */
export interface JobFence {
  queue: string;
  id: string;
  attempt: number;
}

/** A write for a job this worker no longer holds (handed back while it was away, and fetched by another). */
export class JobLost extends Error {
  constructor(readonly fence: JobFence) {
    super(`job ${fence.id} (attempt ${fence.attempt}) is no longer this worker's`);
    this.name = "JobLost";
  }
}

/**
 * Runs `write` in a transaction that first locks the job's row as this fetch holds it (active, the
 * same attempt): a hand-back waits for the write to commit, or the write finds the job gone and
 * nothing is written (JobLost).
 */
export async function fencedByJob<T>(
  prisma: PrismaClient,
  fence: JobFence,
  write: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      const held = await tx.$queryRaw<Array<{ ok: number }>>`
      SELECT 1 AS "ok" FROM pgboss.job WHERE "name" = ${fence.queue} AND "id" = ${fence.id}::uuid AND "state" = 'active' AND "retry_count" = ${fence.attempt} FOR SHARE`;
      if (!held.length) throw new JobLost(fence);
      return write(tx);
    },
    // Two statements (the fence and one write) on a busy or slowed database can outlast the 5 s
    // default; a job's write is small, so a minute means the database is gone, not slow.
    { timeout: FENCED_WRITE_TIMEOUT_MS, maxWait: FENCED_WRITE_TIMEOUT_MS },
  );
}

const FENCED_WRITE_TIMEOUT_MS = 60_000;

/** Turns stored for a run so far, by every process (what a worker's progress event carries). */
export async function runTurnCount(prisma: PrismaClient, runId: number): Promise<number> {
  const [row] = await prisma.$queryRaw<Array<{ n: bigint }>>`
    SELECT COUNT(*) AS "n" FROM "Turn" t JOIN "Episode" e ON e."id" = t."episodeId" WHERE e."runId" = ${runId}`;
  return Number(row?.n ?? 0);
}

export interface PaceFigures {
  remaining: number;
  playing: number;
  /** Of those being played, how many wait for a model server (Episode.waitingFor). */
  waiting: number;
  ended: number;
  meanEpisodeMs: number | null;
  /** The mean over every episode that ended, and [ended, took] (ms) of those that ended within the window. */
  overallMs: number | null;
  recent: Array<[number, number]>;
  /** When those being played now started, and when the run's first episode did (ms since the epoch). */
  playingSince: number[];
  firstStartMs: number | null;
  /** The time these figures are for, and how far back `recent` reaches. */
  atMs: number;
  windowMs: number;
}

/**
 * What a run's pace is computed from (lib/runs/pace.ts): what is left, what plays now and since
 * when, and how long the episodes that ended lately took. `now` is the database's clock unless
 * given (tests replay a run).
 */
export async function runPaceFigures(prisma: PrismaClient, runId: number, now?: Date): Promise<PaceFigures> {
  const at = now ? now.toISOString().replace("T", " ").replace("Z", "") : null;
  const held = Prisma.sql`"status" = 'running' AND "leaseUntil" IS NOT NULL AND "startedAt" <= t.now`;
  const [row] = await prisma.$queryRaw<
    Array<{
      remaining: number;
      playing: number;
      waiting: number;
      ended: number;
      overall: number | null;
      recent: string | null;
      since: string | null;
      first: number | null;
      at: number;
    }>
  >`
    WITH t AS (SELECT coalesce(${at}::timestamp, (now() AT TIME ZONE 'UTC')) AS now)
    SELECT COUNT(*) FILTER (WHERE "status" IN ('pending', 'running'))::int AS remaining,
           COUNT(*) FILTER (WHERE ${held})::int AS playing,
           COUNT(*) FILTER (WHERE ${held} AND "waitingFor" IS NOT NULL)::int AS waiting,
           COUNT(*) FILTER (WHERE "status" IN ('done', 'failed') AND "endedAt" <= t.now)::int AS ended,
           (AVG(EXTRACT(EPOCH FROM ("endedAt" - "startedAt")) * 1000) FILTER (WHERE "status" IN ('done', 'failed') AND "endedAt" <= t.now))::float8 AS overall,
           (json_agg(json_build_array(EXTRACT(EPOCH FROM "endedAt") * 1000, EXTRACT(EPOCH FROM ("endedAt" - "startedAt")) * 1000) ORDER BY "endedAt")
              FILTER (WHERE "status" IN ('done', 'failed') AND "endedAt" <= t.now AND "endedAt" > t.now - make_interval(secs => ${PACE_WINDOW_MS / 1000})))::text AS recent,
           (json_agg(EXTRACT(EPOCH FROM "startedAt") * 1000) FILTER (WHERE ${held}))::text AS since,
           (EXTRACT(EPOCH FROM MIN("startedAt") FILTER (WHERE "startedAt" <= t.now)) * 1000)::float8 AS first,
           (EXTRACT(EPOCH FROM t.now) * 1000)::float8 AS at
      FROM "Episode", t WHERE "runId" = ${runId} GROUP BY t.now`;
  const recent = (row?.recent ? (JSON.parse(row.recent) as Array<[number, number | null]>) : []).map(
    ([ended, took]) => [Number(ended), took === null ? Number.NaN : Number(took)] as [number, number],
  );
  const overallMs = row?.overall ?? null;
  return {
    remaining: row?.remaining ?? 0,
    playing: row?.playing ?? 0,
    waiting: row?.waiting ?? 0,
    ended: row?.ended ?? 0,
    meanEpisodeMs: meanOf(recent) ?? overallMs,
    overallMs,
    recent,
    playingSince: row?.since ? (JSON.parse(row.since) as number[]).map(Number) : [],
    firstStartMs: row?.first ?? null,
    atMs: row?.at ?? (now ?? new Date()).getTime(),
    windowMs: PACE_WINDOW_MS,
  };
}

function meanOf(recent: Array<[number, number]>): number | null {
  // AVG skips what has no start (an episode that failed before it began).
  const took = recent.map(([, ms]) => ms).filter((ms) => !Number.isNaN(ms));
  return took.length ? took.reduce((a, b) => a + b, 0) / took.length : null;
}

/** The same figures at a later `now`, no episode having changed since: which endings are recent, and how long those in play have played, move. */
export function paceFiguresAt(figures: PaceFigures, now: Date): PaceFigures {
  const recent = figures.recent.filter(([ended]) => ended > now.getTime() - PACE_WINDOW_MS);
  return {
    ...figures,
    recent,
    meanEpisodeMs: meanOf(recent) ?? figures.overallMs,
    atMs: Math.max(figures.atMs, now.getTime()),
  };
}
