import type { Prisma, PrismaClient } from "../db/generated/client";
import { playerName } from "../colbench/run-config";
import { runConfigSchema, type RunConfig } from "../benchmarks/run-config";
import { runEmbedder, runRenderProfile, type RunEmbedder } from "../benchmarks/frontend/run-options";
import { scoredByOf } from "../benchmarks/reward-sentence";
import type { Benchmark } from "../benchmarks";
import type { RenderProfile } from "../colbench/render-profile";
import type { TurnRecord } from "../colbench/episode";
import { describeFailure, failureOf, waitOf, type ServerWait } from "../colbench/failure";
import { loadTurns } from "./episodes";
import { benchmarkToWrite, knownBenchmark, storedBenchmark } from "./benchmark-names";

export type RunKind = "benchmark" | "played";

export interface RunSummary {
  id: number;
  name: string;
  benchmark: Benchmark;
  kind: RunKind;
  status: string;
  createdAt: Date;
  archivedAt: Date | null;
  /** A researcher's words about the run, and its tags (sorted): lib/store/run-notes.ts. */
  notes: string;
  tags: string[];
  agent: string | null;
  simulator: string | null;
  total: number;
  done: number;
  failed: number;
  /**
   * Episodes being played now (running, with a claim's lease), and those left to play: not started, or
   * interrupted and held by nobody (a stopped run's, still `running` in the table until played on).
   */
  playing: number;
  toPlay: number;
  /** Over finished episodes: mean reward, and the share with reward 1 (backend success). */
  meanReward: number | null;
  successRate: number | null;
  /** Page answers: the render profile its scores were made under (null: other benchmarks, or imported rewards). */
  render: RenderProfile | null;
  /** Page answers: the image embedder its similarities come from (null: other benchmarks, or imported rewards). */
  embedder: RunEmbedder | null;
  /** Episodes waiting for a model server that does not answer, and what the first of them says. */
  waiting: { episodes: number; wait: ServerWait } | null;
}

function models(config: unknown): { agent: string | null; simulator: string | null } {
  const parsed = runConfigSchema.safeParse(config);
  if (!parsed.success) return { agent: null, simulator: null };
  return { agent: playerName(parsed.data.agent), simulator: playerName(parsed.data.simulator) };
}

/**
 * Which runs a list shows. Benchmark runs that are not archived, unless asked for more: the runs
 * list, the Leaderboard, Compare, the Sessions list and `colbench runs` all pass through here.
 */
export interface RunFilter {
  /** Played sessions only (the Sessions list). */
  kind?: RunKind;
  /** Benchmark runs and played sessions together. */
  includePlayed?: boolean;
  includeArchived?: boolean;
  /** Runs carrying this tag only (the runs list's `?tag=`). */
  tag?: string;
}

export function runWhere(filter: RunFilter = {}): Prisma.RunWhereInput {
  return {
    // Runs of a benchmark this studio does not know are in no list (lib/store/benchmark-names.ts).
    benchmark: knownBenchmark(),
    ...(filter.kind ? { kind: filter.kind } : filter.includePlayed ? {} : { kind: "benchmark" }),
    ...(filter.includeArchived ? {} : { archivedAt: null }),
    ...(filter.tag ? { tags: { has: filter.tag } } : {}),
  };
}

export interface RunRow {
  id: number;
  name: string;
  benchmark: Benchmark;
  status: "pending" | "running" | "paused" | "done" | "failed";
  config: unknown;
}

export type RunStatus = RunRow["status"];

const runRow = { id: true, name: true, benchmark: true, status: true, config: true } as const;

/** A run by id, or by name when the text is not a number. */
export async function findRun(prisma: PrismaClient, nameOrId: string | number): Promise<RunRow | null> {
  if (typeof nameOrId === "number" || /^\d+$/.test(nameOrId)) {
    const id = Number(nameOrId);
    return Number.isSafeInteger(id) ? narrowed(await prisma.run.findUnique({ where: { id }, select: runRow })) : null;
  }
  return narrowed(await prisma.run.findUnique({ where: { name: nameOrId }, select: runRow }));
}

function narrowed<R extends { name: string; benchmark: string }>(run: R | null): (R & { benchmark: Benchmark }) | null {
  return run && { ...run, benchmark: storedBenchmark(run.benchmark, `run ${run.name}`) };
}

/** Stores a new run; a name already taken is an error that says how to go on instead. */
export async function insertRun(
  prisma: PrismaClient,
  run: { name: string; benchmark: Benchmark; kind?: RunKind; config: RunConfig },
): Promise<{ id: number }> {
  const benchmark = benchmarkToWrite(run.benchmark);
  const existing = await prisma.run.findUnique({ where: { name: run.name }, select: { id: true } });
  if (existing)
    throw new Error(
      `a run named "${run.name}" exists already: continue it with \`colbench resume ${run.name}\` or pick another --name`,
    );
  return prisma.run.create({
    data: { name: run.name, benchmark, kind: run.kind ?? "benchmark", config: run.config },
    select: { id: true },
  });
}

export async function setRunStatus(prisma: PrismaClient, runId: number, status: RunStatus): Promise<void> {
  await prisma.run.update({ where: { id: runId }, data: { status } });
}

export async function listRuns(prisma: PrismaClient, filter: RunFilter = {}): Promise<RunSummary[]> {
  return summaries(prisma, await prisma.run.findMany({ where: runWhere(filter), orderBy: { id: "desc" } }));
}

/** Runs' ids and names only, newest first (a picker needs no counts). */
export async function listRunNames(
  prisma: PrismaClient,
  filter: RunFilter = {},
): Promise<Array<{ id: number; name: string }>> {
  return prisma.run.findMany({ where: runWhere(filter), orderBy: { id: "desc" }, select: { id: true, name: true } });
}

/** One run's summary, archived or not (its own page still opens). */
export async function runSummary(prisma: PrismaClient, id: number): Promise<RunSummary | null> {
  if (!Number.isSafeInteger(id)) return null;
  const run = await prisma.run.findUnique({ where: { id } });
  return run ? (await summaries(prisma, [run]))[0]! : null;
}

type RunRecord = {
  id: number;
  name: string;
  benchmark: string;
  kind: RunKind;
  status: string;
  createdAt: Date;
  archivedAt: Date | null;
  notes: string;
  tags: string[] | null;
  config: unknown;
};

function waitingOf(row: { n: number; wait: unknown } | undefined): RunSummary["waiting"] {
  const wait = row && waitOf(row.wait);
  return row && wait ? { episodes: row.n, wait } : null;
}

function playingOf(running: number, pending: number, held: number): Pick<RunSummary, "playing" | "toPlay"> {
  return { playing: held, toPlay: pending + running - held };
}

async function summaries(prisma: PrismaClient, runs: RunRecord[]): Promise<RunSummary[]> {
  const runId = { in: runs.map((r) => r.id) };
  const [byStatus, held, rewards, successes, waits] = await Promise.all([
    prisma.episode.groupBy({ by: ["runId", "status"], where: { runId }, _count: { _all: true } }),
    // Held as pace.ts counts them (lib/store/workers.ts: running with a lease).
    prisma.episode.groupBy({
      by: ["runId"],
      where: { runId, status: "running", leaseUntil: { not: null } },
      _count: { _all: true },
    }),
    prisma.episode.groupBy({ by: ["runId"], where: { runId, status: "done" }, _avg: { reward: true } }),
    prisma.episode.groupBy({ by: ["runId"], where: { runId, status: "done", reward: 1 }, _count: { _all: true } }),
    runs.length
      ? prisma.$queryRaw<Array<{ runId: number; n: number; wait: unknown }>>`
          SELECT "runId", COUNT(*)::int AS n, (array_agg("waitingFor" ORDER BY "id"))[1] AS wait FROM "Episode"
           WHERE "runId" = ANY(${runs.map((r) => r.id)}::int[]) AND "status" = 'running' AND "waitingFor" IS NOT NULL GROUP BY "runId"`
      : Promise.resolve([]),
  ]);
  return runs.map((run) => {
    const counts = byStatus.filter((g) => g.runId === run.id);
    const count = (status: string) => counts.find((g) => g.status === status)?._count._all ?? 0;
    const done = count("done");
    return {
      id: run.id,
      name: run.name,
      benchmark: storedBenchmark(run.benchmark, `run ${run.name}`),
      kind: run.kind,
      status: run.status,
      createdAt: run.createdAt,
      archivedAt: run.archivedAt,
      notes: run.notes,
      tags: run.tags ?? [],
      ...models(run.config),
      render: runRenderProfile(run.config),
      embedder: runEmbedder(run.config),
      total: counts.reduce((n, g) => n + g._count._all, 0),
      done,
      failed: count("failed"),
      ...playingOf(count("running"), count("pending"), held.find((h) => h.runId === run.id)?._count._all ?? 0),
      meanReward: rewards.find((r) => r.runId === run.id)?._avg.reward ?? null,
      successRate: done ? (successes.find((s) => s.runId === run.id)?._count._all ?? 0) / done : null,
      waiting: waitingOf(waits.find((w) => w.runId === run.id)),
    };
  });
}

/** Archived runs leave every list and ranking (their pages still open); restoring brings them back. */
export async function setRunArchived(prisma: PrismaClient, runId: number, archived: boolean): Promise<boolean> {
  const { count } = await prisma.run.updateMany({
    where: { id: runId },
    data: { archivedAt: archived ? new Date() : null },
  });
  return count === 1;
}

export interface DeletedRun {
  episodes: number;
  turns: number;
  /** Renders this run referred to that nothing left refers to: the caller removes their files. */
  orphanRenders: string[];
}

/**
 * Removes a run with everything that belongs to it alone: episodes, turns, candidates, pairs, seat
 * links and labels go with it (the schema cascades); tasks and other runs stay. Renders are files
 * shared by content, so only those no remaining episode or turn names are reported as orphans.
 */
export async function deleteRun(prisma: PrismaClient, runId: number): Promise<DeletedRun | null> {
  return prisma.$transaction(async (tx) => {
    const run = await tx.run.findUnique({ where: { id: runId }, select: { id: true } });
    if (!run) return null;
    const [episodes, turns, named] = await Promise.all([
      tx.episode.count({ where: { runId } }),
      tx.turn.count({ where: { episode: { runId } } }),
      tx.$queryRaw<Array<{ id: string }>>`
        SELECT DISTINCT t."renderId" AS id FROM "Turn" t JOIN "Episode" e ON e.id = t."episodeId"
         WHERE e."runId" = ${runId} AND t."renderId" IS NOT NULL
        UNION
        SELECT DISTINCT r.id FROM "Episode" e, LATERAL (VALUES (e.details->>'answerRender'), (e.details->>'targetRender')) AS r(id)
         WHERE e."runId" = ${runId} AND r.id IS NOT NULL`,
    ]);
    await tx.run.delete({ where: { id: runId } });
    const ids = named.map((r) => r.id);
    const kept = ids.length
      ? await tx.$queryRaw<Array<{ id: string }>>`
          SELECT DISTINCT "renderId" AS id FROM "Turn" WHERE "renderId" = ANY(${ids})
          UNION
          SELECT DISTINCT r.id FROM "Episode" e, LATERAL (VALUES (e.details->>'answerRender'), (e.details->>'targetRender')) AS r(id)
           WHERE r.id = ANY(${ids})`
      : [];
    const keep = new Set(kept.map((r) => r.id));
    return { episodes, turns, orphanRenders: ids.filter((id) => !keep.has(id)) };
  });
}

export interface EpisodeRow {
  id: number;
  taskId: number;
  sample: number;
  status: string;
  reward: number | null;
  turns: number;
  problemDescription: string;
  /** Why it failed, for failed episodes. */
  failure: string | null;
}

/** Score bands for filtering a run's episodes: every test passed (or similarity 1), some, none. */
export const SCORE_BANDS = ["full", "partial", "zero"] as const;
export type ScoreBand = (typeof SCORE_BANDS)[number];

const BAND_WHERE: Record<ScoreBand, Prisma.FloatNullableFilter<"Episode">> = {
  full: { gte: 1 },
  partial: { gt: 0, lt: 1 },
  zero: { lte: 0 },
};

/** The columns a run's episodes can be ordered by (the `sort` search parameter of its page and route). */
export const EPISODE_SORTS = ["id", "task", "sample", "turns", "reward", "status"] as const;
export type EpisodeSort = (typeof EPISODE_SORTS)[number];

const EPISODE_ORDER: Record<EpisodeSort, (dir: "asc" | "desc") => Prisma.EpisodeOrderByWithRelationInput[]> = {
  id: (dir) => [{ id: dir }],
  task: (dir) => [{ taskId: dir }, { sample: "asc" }],
  sample: (dir) => [{ sample: dir }],
  turns: (dir) => [{ turnCount: dir }],
  // Episodes without a reward (not finished) come last either way.
  reward: (dir) => [{ reward: { sort: dir, nulls: "last" } }],
  status: (dir) => [{ status: dir }],
};

export async function listEpisodes(
  prisma: PrismaClient,
  runId: number,
  options: {
    page?: number;
    pageSize?: number;
    status?: "pending" | "running" | "done" | "failed";
    score?: ScoreBand;
    /** A column of EPISODE_SORTS and a direction; by episode number when absent. */
    sort?: { column: EpisodeSort; dir: "asc" | "desc" };
  } = {},
): Promise<{ items: EpisodeRow[]; total: number; page: number; pages: number }> {
  const pageSize = Math.min(Math.max(options.pageSize ?? 50, 1), 200);
  const where: Prisma.EpisodeWhereInput = {
    runId,
    ...(options.status ? { status: options.status } : {}),
    ...(options.score ? { reward: BAND_WHERE[options.score] } : {}),
  };
  const total = await prisma.episode.count({ where });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // A page past the end (an old link, a typed URL) shows the last one.
  const page = Math.min(Math.max(options.page ?? 1, 1), pages);
  const rows = await prisma.episode.findMany({
    where,
    // The database orders the whole run, then the page is cut: ties (and the default) by episode number.
    orderBy: options.sort ? [...EPISODE_ORDER[options.sort.column](options.sort.dir), { id: "asc" }] : { id: "asc" },
    skip: (page - 1) * pageSize,
    take: pageSize,
    select: {
      id: true,
      taskId: true,
      sample: true,
      status: true,
      reward: true,
      details: true,
      turnCount: true,
      task: { select: { problemDescription: true } },
    },
  });
  return {
    items: rows.map((r) => {
      const failure = r.status === "failed" ? failureOf(r.details) : null;
      return {
        id: r.id,
        taskId: r.taskId,
        sample: r.sample,
        status: r.status,
        reward: r.reward,
        turns: r.turnCount,
        problemDescription: r.task.problemDescription,
        failure: failure ? describeFailure(failure) : null,
      };
    }),
    total,
    page,
    pages,
  };
}

export interface EpisodeView {
  id: number;
  runId: number | null;
  runName: string | null;
  taskId: number;
  benchmark: Benchmark;
  sample: number;
  status: string;
  answer: string | null;
  reward: number | null;
  details: unknown;
  turns: TurnRecord[];
  /** Who played: people or model servers. */
  humanSimulated: boolean;
  humanAgent: boolean;
  /** Neighbours within the run, for keyboard navigation. */
  previousId: number | null;
  nextId: number | null;
  /** While it waits for a model server that does not answer. */
  waitingFor: ServerWait | null;
  /** What made the reward, where the benchmark names it (a similarity's embedder). */
  scoredBy: string | null;
}

/** One episode for review (it carries hidden information: reviewers only, never an agent-role page). */
export async function getEpisode(prisma: PrismaClient, id: number): Promise<EpisodeView | null> {
  const episode = await prisma.episode.findUnique({
    where: { id },
    include: { run: { select: { name: true, config: true } }, task: { select: { benchmark: true } } },
  });
  if (!episode) return null;
  const benchmark = storedBenchmark(episode.task.benchmark, `episode ${episode.id}'s task`);
  const [previous, next, turns] = await Promise.all([
    prisma.episode.findFirst({
      where: { runId: episode.runId, id: { lt: id } },
      orderBy: { id: "desc" },
      select: { id: true },
    }),
    prisma.episode.findFirst({
      where: { runId: episode.runId, id: { gt: id } },
      orderBy: { id: "asc" },
      select: { id: true },
    }),
    loadTurns(prisma, id),
  ]);
  return {
    id: episode.id,
    runId: episode.runId,
    runName: episode.run?.name ?? null,
    taskId: episode.taskId,
    benchmark,
    sample: episode.sample,
    status: episode.status,
    answer: episode.answer,
    reward: episode.reward,
    details: episode.details,
    turns,
    humanSimulated: episode.humanSimulated,
    humanAgent: models(episode.run?.config).agent === "human",
    previousId: previous?.id ?? null,
    nextId: next?.id ?? null,
    waitingFor: episode.status === "running" ? waitOf(episode.waitingFor) : null,
    scoredBy: scoredByOf(benchmark, episode.run?.config),
  };
}
