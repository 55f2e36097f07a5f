import type { PrismaClient, Prisma } from "../db/generated/client";
import type { TaskInput, TestCase } from "../colbench/tasks";
import { BENCHMARKS, type Benchmark } from "../benchmarks";
import { knownBenchmark, storedBenchmark } from "./benchmark-names";
import { likeLiteral } from "./like";

export interface TaskQuery {
  benchmark?: Benchmark;
  split?: string;
  /** Case-insensitive words that must all occur in the problem description. */
  q?: string;
  page?: number;
  pageSize?: number;
}

/** What a list shows: never the hidden parts of a task. */
export interface TaskSummary {
  id: number;
  benchmark: Benchmark;
  split: string;
  problemDescription: string;
  source: string;
  sourceIndex: number;
  testCount: number | null;
}

export interface TaskPage {
  items: TaskSummary[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface StoredTask extends TaskInput, Omit<TaskSummary, "testCount"> {
  benchmark: Benchmark;
}

export const MAX_PAGE_SIZE = 200;

function where(query: TaskQuery): Prisma.TaskWhereInput {
  const words = (query.q ?? "").trim().split(/\s+/).filter(Boolean);
  return {
    // Tasks of a benchmark this studio does not know are not listed (lib/store/benchmark-names.ts).
    benchmark: query.benchmark ?? knownBenchmark(),
    ...(query.split ? { split: query.split } : {}),
    ...(words.length
      ? {
          AND: words.map((word) => ({
            problemDescription: { contains: likeLiteral(word), mode: "insensitive" as const },
          })),
        }
      : {}),
  };
}

export async function listTasks(prisma: PrismaClient, query: TaskQuery = {}): Promise<TaskPage> {
  const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize ?? 25)), MAX_PAGE_SIZE);
  const filter = where(query);
  const total = await prisma.task.count({ where: filter });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // A page past the end (an old link, a typed URL) shows the last one.
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), pages);
  const [rows] = await Promise.all([
    prisma.task.findMany({
      where: filter,
      orderBy: { id: "asc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        benchmark: true,
        split: true,
        problemDescription: true,
        source: true,
        sourceIndex: true,
        testCases: true,
      },
    }),
  ]);
  return {
    items: rows.map(({ testCases, ...row }) => ({
      ...row,
      benchmark: storedBenchmark(row.benchmark, `task ${row.id}`),
      testCount: Array.isArray(testCases) ? testCases.length : null,
    })),
    total,
    page,
    pageSize,
    pages,
  };
}

export async function taskExists(prisma: PrismaClient, id: number): Promise<boolean> {
  return Number.isSafeInteger(id) && (await prisma.task.count({ where: { id } })) === 1;
}

export async function getTask(prisma: PrismaClient, id: number): Promise<StoredTask | null> {
  const row = await prisma.task.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    benchmark: storedBenchmark(row.benchmark, `task ${row.id}`),
    split: row.split,
    problemDescription: row.problemDescription,
    groundTruth: row.groundTruth,
    hiddenInformation: row.hiddenInformation,
    testCases: (row.testCases as TestCase[] | null) ?? null,
    source: row.source,
    sourceIndex: row.sourceIndex,
  };
}

export interface TaskCounts {
  /** Tasks of every registered benchmark (0 where none are stored), in the registry's order. */
  byBenchmark: Record<Benchmark, number>;
  total: number;
  splits: Array<{ benchmark: Benchmark; split: string; count: number }>;
}

export async function taskCounts(prisma: PrismaClient): Promise<TaskCounts> {
  const groups = await prisma.task.groupBy({
    by: ["benchmark", "split"],
    where: { benchmark: knownBenchmark() },
    _count: { _all: true },
  });
  const counts: TaskCounts = {
    byBenchmark: Object.fromEntries(BENCHMARKS.map((name) => [name, 0])) as Record<Benchmark, number>,
    total: 0,
    splits: [],
  };
  for (const group of groups) {
    const benchmark = storedBenchmark(group.benchmark, `tasks of split ${group.split}`);
    counts.byBenchmark[benchmark] += group._count._all;
    counts.total += group._count._all;
    counts.splits.push({ benchmark, split: group.split, count: group._count._all });
  }
  counts.splits.sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.split.localeCompare(b.split));
  return counts;
}

/** How many tasks came from sources starting with `prefix` (the official dataset's files, say). */
export async function countTasksFrom(prisma: PrismaClient, prefix: string): Promise<number> {
  return prisma.task.count({ where: { source: { startsWith: likeLiteral(prefix) } } });
}

/** The target's render from the latest scored episode of a frontend task, with the profile it was rendered under. */
export async function scoredTargetRender(
  prisma: PrismaClient,
  taskId: number,
): Promise<{ id: string; profile: string | null } | null> {
  const rows = await prisma.$queryRaw<Array<{ id: string; profile: string | null }>>`
    SELECT e."details"->>'targetRender' AS id, e."details"->'profile'->>'name' AS profile
      FROM "Episode" e
     WHERE e."taskId" = ${taskId} AND e."status" = 'done' AND e."details"->>'targetStatus' = 'ok'
     ORDER BY e."endedAt" DESC NULLS LAST, e."id" DESC
     LIMIT 1`;
  return rows[0] ?? null;
}
