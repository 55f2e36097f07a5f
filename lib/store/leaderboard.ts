import type { PrismaClient } from "../db/generated/client";
import { meanWithInterval, type Estimate } from "../scoring/metrics/intervals";
import { bestOfTask } from "../scoring/metrics/metrics";
import { winRate, type WinRate } from "../scoring/metrics/compare";
import { listRuns, runSummary, type RunFilter, type RunSummary } from "./runs";
import { benchmarkOf } from "../benchmarks";
import type { ScoreMismatch } from "../benchmarks/module";

export interface LeaderboardRow {
  run: RunSummary;
  /** Tasks with at least one finished episode. */
  tasks: number;
  /** Mean reward (the benchmark's reward: % tests passed, similarity, ...), over tasks. */
  reward: Estimate;
  /** Share of episodes with reward 1 (meaningful where the benchmark's reward has success), over tasks. */
  success: Estimate;
  /** Win rate against the chosen baseline run (of the same benchmark, when their rewards compare). */
  versusBaseline?: WinRate;
  /** Samples per task (the most any task has); best-of-k below when above 1. */
  k: number;
  /** Over tasks, each task's best sample: its reward, and whether it passed every test. */
  bestOfK?: { reward: Estimate; success: Estimate };
  /** Why there is no win rate against the baseline (scored under other settings: its benchmark says which). */
  notComparable?: string;
  /** What differs from the baseline when not comparable ("render profile", "embedder"). */
  notComparableBy?: string;
}

/** A run as its benchmark's comparability rule reads it. */
type ComparedRun = Pick<RunSummary, "name" | "benchmark"> & { config: unknown };

/**
 * Why two runs' rewards may not be compared (made under different settings), most telling first,
 * by their benchmark's rule (lib/benchmarks, `scoreMismatches`); none for a benchmark without one.
 */
export function scoreMismatches(a: ComparedRun, b: ComparedRun): ScoreMismatch[] {
  return benchmarkOf(a.benchmark).scoreMismatches?.(a, b) ?? [];
}

/** Stored configs by run id: what the comparability rules read (summaries do not carry them). */
async function runConfigs(prisma: PrismaClient, ids: number[]): Promise<Map<number, unknown>> {
  const rows = ids.length
    ? await prisma.run.findMany({ where: { id: { in: ids } }, select: { id: true, config: true } })
    : [];
  return new Map(rows.map((r) => [r.id, r.config]));
}

interface TaskOutcomes {
  /** Finished rewards per task, in sample order. */
  rewards: Map<number, number[]>;
  /** The lowest-sample finished episode of each task. */
  first: Map<number, number>;
}

/**
 * A run's outcomes by task in one grouped query, as one JSON text: a 10,000-episode run is 1000
 * rows here, and a driver turning rows into objects costs more than the database's grouping.
 */
export async function taskOutcomes(prisma: PrismaClient, runId: number): Promise<TaskOutcomes> {
  const [row] = await prisma.$queryRaw<Array<{ rows: string | null }>>`
    SELECT json_agg(json_build_array(t."taskId", t.rewards, t.first) ORDER BY t."taskId")::text AS rows
      FROM (SELECT "taskId",
                   array_agg("reward" ORDER BY "sample") FILTER (WHERE "status" = 'done' AND "reward" IS NOT NULL) AS rewards,
                   (array_agg("id" ORDER BY "sample") FILTER (WHERE "status" = 'done'))[1] AS first
              FROM "Episode" WHERE "runId" = ${runId} GROUP BY "taskId") t`;
  const rewards = new Map<number, number[]>();
  const first = new Map<number, number>();
  for (const [taskId, rs, firstId] of JSON.parse(row?.rows ?? "[]") as Array<
    [number, number[] | null, number | null]
  >) {
    if (rs) rewards.set(taskId, rs);
    if (firstId !== null) first.set(taskId, firstId);
  }
  return { rewards, first };
}

const perTask = async (prisma: PrismaClient, runId: number) => (await taskOutcomes(prisma, runId)).rewards;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Every run the filter shows that has finished episodes, best first; intervals are over tasks. */
export async function leaderboard(
  prisma: PrismaClient,
  baselineRunId?: number,
  filter: RunFilter = {},
): Promise<LeaderboardRow[]> {
  const runs = (await listRuns(prisma, filter)).filter((run) => run.done > 0);
  const rewards = new Map<number, Map<number, number[]>>();
  for (const run of runs) rewards.set(run.id, await perTask(prisma, run.id));
  const pairs = (runId: number) =>
    [...(rewards.get(runId) ?? new Map<number, number[]>()).entries()].map(([taskId, rs]) => ({
      taskKey: String(taskId),
      reward: mean(rs),
    }));
  const baseline = runs.find((run) => run.id === baselineRunId);
  const configs = baseline
    ? await runConfigs(
        prisma,
        runs.filter((run) => run.benchmark === baseline.benchmark).map((run) => run.id),
      )
    : new Map<number, unknown>();
  const compared = (run: RunSummary): ComparedRun => ({ ...run, config: configs.get(run.id) });
  const rows = runs.map((run): LeaderboardRow => {
    const tasks = [...rewards.get(run.id)!.values()];
    const k = Math.max(0, ...tasks.map((rs) => rs.length));
    const row: LeaderboardRow = {
      run,
      tasks: tasks.length,
      reward: meanWithInterval(tasks.map(mean)),
      success: meanWithInterval(tasks.map((rs) => mean(rs.map((r) => (r === 1 ? 1 : 0))))),
      k,
    };
    if (k > 1) {
      const best = tasks.map((rs) => bestOfTask(rs));
      row.bestOfK = { reward: meanWithInterval(best), success: meanWithInterval(best.map((r) => (r === 1 ? 1 : 0))) };
    }
    if (baseline && baseline.id !== run.id && baseline.benchmark === run.benchmark) {
      const [mismatch] = scoreMismatches(compared(run), compared(baseline));
      if (mismatch) {
        row.notComparable = mismatch.reason;
        row.notComparableBy = mismatch.by;
      } else row.versusBaseline = winRate(pairs(run.id), pairs(baseline.id));
    }
    return row;
  });
  return rows.sort((a, b) => a.run.benchmark.localeCompare(b.run.benchmark) || b.reward.mean - a.reward.mean);
}

export interface TaskComparison {
  taskId: number;
  problemDescription: string;
  /** Mean reward over the run's finished samples of the task; null where it has none. */
  a: number | null;
  b: number | null;
  /** Each run's first episode of the task (its replay), if it has one. */
  aEpisode: number | null;
  bEpisode: number | null;
}

export interface RunComparison {
  a: RunSummary;
  b: RunSummary;
  tasks: TaskComparison[];
  /** Over tasks both runs finished: A's win rate (ties split) with its bootstrap interval; null when none, or not comparable. */
  versus: WinRate | null;
  /** Why the two runs' rewards may not be compared (different render profiles, embedders, ...): then no win rate. */
  mismatches: ScoreMismatch[];
}

/** Two runs of one benchmark side by side, task by task. */
/** Where a comparison reads a run's summary and outcomes: the database, or what the studio keeps per revision (lib/store/run-memo.ts). */
export interface RunSource {
  summary(runId: number): Promise<RunSummary | null>;
  outcomes(runId: number): Promise<TaskOutcomes>;
}

export async function compareRuns(
  prisma: PrismaClient,
  aId: number,
  bId: number,
  source?: RunSource,
): Promise<RunComparison | string> {
  const read: RunSource = source ?? {
    summary: (id) => runSummary(prisma, id),
    outcomes: (id) => taskOutcomes(prisma, id),
  };
  // Two runs named on purpose are compared whatever their kind or archive state.
  const [a, b] = await Promise.all([read.summary(aId), read.summary(bId)]);
  if (!a || !b) return `no run ${!a ? aId : bId}`;
  if (a.benchmark !== b.benchmark)
    return `${a.name} is a ${a.benchmark} run and ${b.name} a ${b.benchmark} run: compare runs of one benchmark`;
  const [oa, ob] = await Promise.all([read.outcomes(a.id), read.outcomes(b.id)]);
  const [ra, rb] = [oa.rewards, ob.rewards];
  const ids = [...new Set([...ra.keys(), ...rb.keys()])].sort((x, y) => x - y);
  const descriptions = new Map(
    (await prisma.task.findMany({ where: { id: { in: ids } }, select: { id: true, problemDescription: true } })).map(
      (t) => [t.id, t.problemDescription],
    ),
  );
  const meanOf = (xs: number[] | undefined) => (xs?.length ? mean(xs) : null);
  const [ea, eb] = [oa.first, ob.first];
  const tasks = ids.map((taskId) => ({
    taskId,
    problemDescription: descriptions.get(taskId) ?? "",
    a: meanOf(ra.get(taskId)),
    b: meanOf(rb.get(taskId)),
    aEpisode: ea.get(taskId) ?? null,
    bEpisode: eb.get(taskId) ?? null,
  }));
  const pairsOf = (m: Map<number, number[]>) =>
    [...m.entries()].map(([taskId, rs]) => ({ taskKey: String(taskId), reward: mean(rs) }));
  const shared = tasks.some((t) => t.a !== null && t.b !== null);
  const configs = await runConfigs(prisma, [a.id, b.id]);
  const mismatches = scoreMismatches({ ...a, config: configs.get(a.id) }, { ...b, config: configs.get(b.id) });
  return { a, b, tasks, versus: shared && !mismatches.length ? winRate(pairsOf(ra), pairsOf(rb)) : null, mismatches };
}
