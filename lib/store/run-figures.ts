import type { PrismaClient } from "../db/generated/client";
import type { EpisodeStats } from "./run-stats";

// What the run page and Compare chart, counted by the database: a 10,000-episode run answers with a
// few hundred numbers instead of 10,000 rows. `figuresOf` is the same counting over rows in
// TypeScript: the reference the SQL is tested against, and what unit tests build figures with.

/** Equal-width bins from 0; the width is the first of NICE_WIDTHS that puts `max` within ten bins. */
export interface Histogram {
  max: number;
  width: number;
  /** [bin, count] for the bins that have any. */
  counts: Array<[number, number]>;
}

export interface RunFigures {
  episodes: number;
  /** Episodes done with a reward. */
  done: number;
  /** [bin, count] of done rewards: 0 is exactly 0, 1-10 the tenths, 11 exactly 1. */
  rewardBins: Array<[number, number]>;
  /** Done episodes by agent turns: [agentTurns, episodes, successes, reward total], by agentTurns. */
  byAgentTurns: Array<[number, number, number, number]>;
  /** [turns, count] of done episodes, by turns. */
  turns: Array<[number, number]>;
  answerChars: Histogram;
  tokensPerEpisode: Histogram;
  tokens: { agent: { prompt: number; completion: number }; simulator: { prompt: number; completion: number } };
  /** Over tasks with a done episode: how many, the most samples one has, the sum of their best rewards, how many reached 1. */
  tasks: { count: number; k: number; bestSum: number; successes: number };
  /** Episodes neither done nor failed. */
  remaining: number;
  /** Episodes with at least one turn: what per-episode token figures are over (a pending one was not played). */
  played: number;
  /**
   * When episodes ended: how many, the first (ms), how many since `cutoffMs` (ten minutes before the
   * query) and when those did (ms, in order: what `sinceCutoff` is later, with no episode changed).
   */
  ended: { total: number; firstMs: number | null; sinceCutoff: number; cutoffMs: number; recentMs: number[] };
}

export const NICE_WIDTHS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
const FALLBACK_WIDTH = 1_000_000;
export const PACE_WINDOW_MS = 10 * 60_000;

/** The same figures at a later `now`, no episode having changed since: only how many ended lately moves. */
export function figuresAt(figures: RunFigures, now: Date): RunFigures {
  const cutoffMs = now.getTime() - PACE_WINDOW_MS;
  const recentMs = figures.ended.recentMs.filter((t) => t >= cutoffMs);
  return { ...figures, ended: { ...figures.ended, cutoffMs, sinceCutoff: recentMs.length, recentMs } };
}

export function niceWidth(max: number): number {
  return NICE_WIDTHS.find((w) => max / w <= 10) ?? FALLBACK_WIDTH;
}

export function rewardBin(reward: number): number {
  if (reward <= 0) return 0;
  if (reward >= 1) return 11;
  return 1 + Math.min(9, Math.floor(reward * 10));
}

function histogramOf(values: number[]): Histogram {
  const max = Math.max(0, ...values);
  const width = niceWidth(max);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(Math.floor(v / width), (counts.get(Math.floor(v / width)) ?? 0) + 1);
  return { max, width, counts: [...counts.entries()].sort((a, b) => a[0] - b[0]) };
}

function countsOf(values: number[]): Array<[number, number]> {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

const totalTokens = (e: EpisodeStats) =>
  e.tokens.agent.prompt + e.tokens.agent.completion + e.tokens.simulator.prompt + e.tokens.simulator.completion;

/** The reference: the same figures from one row per episode. */
export function figuresOf(stats: EpisodeStats[], now: Date = new Date()): RunFigures {
  const done = stats.filter((e) => e.status === "done" && e.reward !== null);
  const byTurns = new Map<number, [number, number, number, number]>();
  for (const e of done) {
    const row = byTurns.get(e.agentTurns) ?? [e.agentTurns, 0, 0, 0];
    row[1]++;
    row[2] += e.reward === 1 ? 1 : 0;
    row[3] += e.reward!;
    byTurns.set(e.agentTurns, row);
  }
  const best = new Map<number, { best: number; samples: number }>();
  for (const e of done) {
    const task = best.get(e.taskId) ?? { best: -Infinity, samples: 0 };
    best.set(e.taskId, { best: Math.max(task.best, e.reward!), samples: task.samples + 1 });
  }
  const sum = (f: (e: EpisodeStats) => number) => stats.reduce((n, e) => n + f(e), 0);
  const ended = stats.flatMap((e) => (e.endedAt ? [e.endedAt.getTime()] : []));
  const cutoffMs = now.getTime() - PACE_WINDOW_MS;
  const recentMs = ended.filter((t) => t >= cutoffMs).sort((a, b) => a - b);
  return {
    episodes: stats.length,
    done: done.length,
    rewardBins: countsOf(done.map((e) => rewardBin(e.reward!))),
    byAgentTurns: [...byTurns.values()].sort((a, b) => a[0] - b[0]),
    turns: countsOf(done.map((e) => e.turns)),
    answerChars: histogramOf(done.flatMap((e) => (e.answerChars === null ? [] : [e.answerChars]))),
    tokensPerEpisode: histogramOf(stats.filter((e) => e.turns > 0).map(totalTokens)),
    tokens: {
      agent: { prompt: sum((e) => e.tokens.agent.prompt), completion: sum((e) => e.tokens.agent.completion) },
      simulator: {
        prompt: sum((e) => e.tokens.simulator.prompt),
        completion: sum((e) => e.tokens.simulator.completion),
      },
    },
    tasks: {
      count: best.size,
      k: Math.max(0, ...[...best.values()].map((t) => t.samples)),
      bestSum: [...best.values()].reduce((n, t) => n + t.best, 0),
      successes: [...best.values()].filter((t) => t.best === 1).length,
    },
    remaining: stats.filter((e) => e.status !== "done" && e.status !== "failed").length,
    played: stats.filter((e) => e.turns > 0).length,
    ended: {
      total: ended.length,
      firstMs: ended.length ? Math.min(...ended) : null,
      sinceCutoff: recentMs.length,
      cutoffMs,
      recentMs,
    },
  };
}

type GroupRow = [
  gDone: number,
  gRb: number,
  gAt: number,
  gTc: number,
  gAb: number,
  gTb: number,
  gTask: number,
  done: boolean | null,
  rb: number | null,
  at: number | null,
  tc: number | null,
  ab: number | null,
  tb: number | null,
  taskId: number | null,
  n: number,
  ones: number,
  rewardSum: number | null,
  rewardMax: number | null,
  ap: number,
  ac: number,
  sp: number,
  sc: number,
  ended: number,
  firstMs: number | null,
  sinceCutoff: number,
  remaining: number,
  played: number,
];

/**
 * The same figures, counted by the database: one scan for the histograms' ranges, then one scan
 * grouped by every figure at once (GROUPING SETS), as one JSON text.
 */
export async function runFigures(prisma: PrismaClient, runId: number, now: Date = new Date()): Promise<RunFigures> {
  const cutoffMs = now.getTime() - PACE_WINDOW_MS;
  const row = await countGroups(prisma, runId, cutoffMs);
  const figures = emptyFigures(row, cutoffMs);
  for (const group of JSON.parse(row.groups ?? "[]") as GroupRow[]) addGroup(figures, group);
  const byFirst = (a: number[], b: number[]) => a[0]! - b[0]!;
  for (const list of [
    figures.rewardBins,
    figures.byAgentTurns,
    figures.turns,
    figures.answerChars.counts,
    figures.tokensPerEpisode.counts,
  ])
    list.sort(byFirst);
  return figures;
}

/** What the database counts in one statement: the grouped figures and recent ends as JSON, and the histograms' ranges. */
interface CountedGroups {
  groups: string | null;
  recent: string;
  amax: number;
  tmax: number;
  aw: number;
  tw: number;
}

async function countGroups(prisma: PrismaClient, runId: number, cutoffMs: number): Promise<CountedGroups> {
  // Dates are compared as epoch milliseconds: the columns are UTC timestamps without a zone.
  const [row] = await prisma.$queryRaw<CountedGroups[]>`
    WITH m AS (
      SELECT coalesce(max("answerChars") FILTER (WHERE "status" = 'done' AND "reward" IS NOT NULL), 0) AS amax,
             coalesce(max("agentPromptTokens" + "agentCompletionTokens" + "simulatorPromptTokens" + "simulatorCompletionTokens"), 0) AS tmax
        FROM "Episode" WHERE "runId" = ${runId}
    ), nice AS (
      SELECT amax, tmax,
             coalesce((SELECT min(w) FROM unnest(${NICE_WIDTHS}::int[]) w WHERE amax::float8 / w <= 10), ${FALLBACK_WIDTH}) AS aw,
             coalesce((SELECT min(w) FROM unnest(${NICE_WIDTHS}::int[]) w WHERE tmax::float8 / w <= 10), ${FALLBACK_WIDTH}) AS tw
        FROM m
    ), x AS (
      SELECT ("status" = 'done' AND "reward" IS NOT NULL) AS done, "status", "reward", "taskId", "agentTurnCount" AS at, "turnCount" AS tc,
             CASE WHEN "reward" <= 0 THEN 0 WHEN "reward" >= 1 THEN 11 ELSE 1 + least(9, floor("reward" * 10)::int) END AS rb,
             floor("answerChars"::float8 / nice.aw)::int AS ab,
             CASE WHEN "turnCount" > 0 THEN floor(("agentPromptTokens" + "agentCompletionTokens" + "simulatorPromptTokens" + "simulatorCompletionTokens")::float8 / nice.tw)::int END AS tb,
             "agentPromptTokens" AS ap, "agentCompletionTokens" AS ac, "simulatorPromptTokens" AS sp, "simulatorCompletionTokens" AS sc,
             extract(epoch FROM "endedAt") * 1000 AS ended
        FROM "Episode", nice WHERE "runId" = ${runId}
    ), g AS (
      SELECT GROUPING(done) AS g_done, GROUPING(rb) AS g_rb, GROUPING(at) AS g_at, GROUPING(tc) AS g_tc, GROUPING(ab) AS g_ab, GROUPING(tb) AS g_tb, GROUPING("taskId") AS g_task,
             done, rb, at, tc, ab, tb, "taskId",
             count(*) AS n, count(*) FILTER (WHERE "reward" = 1) AS ones, sum("reward") AS rsum, max("reward") AS rmax,
             coalesce(sum(ap), 0) AS ap, coalesce(sum(ac), 0) AS ac, coalesce(sum(sp), 0) AS sp, coalesce(sum(sc), 0) AS sc,
             count(ended) AS ended, min(ended) AS first, count(*) FILTER (WHERE ended >= ${cutoffMs}) AS since,
             count(*) FILTER (WHERE "status" NOT IN ('done', 'failed')) AS remaining, count(*) FILTER (WHERE tc > 0) AS played
        FROM x
       GROUP BY GROUPING SETS ((done, rb), (done, at), (done, tc), (done, ab), (tb), (done, "taskId"), ())
    )
    SELECT (SELECT json_agg(json_build_array(g_done, g_rb, g_at, g_tc, g_ab, g_tb, g_task, done, rb, at, tc, ab, tb, "taskId",
                                             n, ones, rsum, rmax, ap, ac, sp, sc, ended, first, since, remaining, played))::text FROM g) AS groups,
           (SELECT coalesce(json_agg(round(ended) ORDER BY ended), '[]')::text FROM x WHERE ended >= ${cutoffMs}) AS recent,
           amax::int AS amax, tmax::int AS tmax, aw::int AS aw, tw::int AS tw
      FROM nice`;
  return row!;
}

/** The figures before any group is added: the histograms' ranges and the episodes that ended lately. */
function emptyFigures(row: CountedGroups, cutoffMs: number): RunFigures {
  return {
    episodes: 0,
    done: 0,
    rewardBins: [],
    byAgentTurns: [],
    turns: [],
    answerChars: { max: row.amax, width: row.aw, counts: [] },
    tokensPerEpisode: { max: row.tmax, width: row.tw, counts: [] },
    tokens: { agent: { prompt: 0, completion: 0 }, simulator: { prompt: 0, completion: 0 } },
    tasks: { count: 0, k: 0, bestSum: 0, successes: 0 },
    remaining: 0,
    played: 0,
    ended: {
      total: 0,
      firstMs: null,
      sinceCutoff: 0,
      cutoffMs,
      recentMs: (JSON.parse(row.recent) as number[]).map(Number),
    },
  };
}

/** Adds one row of the GROUPING SETS to the figures it belongs to (the grand total, or one histogram). */
function addGroup(figures: RunFigures, group: GroupRow): void {
  const [
    gDone,
    gRb,
    gAt,
    gTc,
    gAb,
    gTb,
    gTask,
    done,
    rb,
    at,
    tc,
    ab,
    tb,
    _taskId,
    n,
    ones,
    rewardSum,
    rewardMax,
    ap,
    ac,
    sp,
    sc,
    ended,
    firstMs,
    sinceCutoff,
    remaining,
    played,
  ] = group;
  if (gDone && gTb === 0) {
    if (tb !== null) figures.tokensPerEpisode.counts.push([tb, n]);
  } else if (gDone) {
    // The grand total.
    figures.episodes = n;
    figures.tokens = { agent: { prompt: ap, completion: ac }, simulator: { prompt: sp, completion: sc } };
    figures.remaining = remaining;
    figures.played = played;
    figures.ended = {
      ...figures.ended,
      total: ended,
      firstMs: firstMs === null ? null : Math.round(firstMs),
      sinceCutoff,
    };
  } else if (!done) return;
  else if (gRb === 0) {
    figures.rewardBins.push([rb!, n]);
    figures.done += n;
  } else if (gAt === 0) figures.byAgentTurns.push([at!, n, ones, rewardSum!]);
  else if (gTc === 0) figures.turns.push([tc!, n]);
  else if (gAb === 0 && ab !== null) figures.answerChars.counts.push([ab, n]);
  else if (gTask === 0) {
    figures.tasks.count++;
    figures.tasks.k = Math.max(figures.tasks.k, n);
    figures.tasks.bestSum += rewardMax!;
    figures.tasks.successes += rewardMax === 1 ? 1 : 0;
  }
}
