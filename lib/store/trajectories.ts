import type { PrismaClient } from "../db/generated/client";
import { parseTrajectoryLine, toOfficialTrajectory, type OfficialTrajectory } from "../benchmarks/trajectory";
import { formatProblem, taskContentHash, type TestCase } from "../colbench/tasks";
import type { Benchmark } from "../benchmarks";
import { benchmarkToWrite } from "./benchmark-names";
import { appendTurn, loadTurns } from "./episodes";
import { readLines } from "./import-tasks";

/**
 * A run's finished episodes in the benchmark's trajectory format: task by task with each task's
 * samples together, or in the benchmark's best-of-k layout (k blocks of the task list: sample j of
 * task i on line tasks*j + i).
 */
export async function* exportOfficial(
  prisma: PrismaClient,
  runId: number,
  options: { layout?: "task" | "best-of-k" } = {},
): AsyncGenerator<OfficialTrajectory> {
  const order =
    options.layout === "best-of-k"
      ? [{ sample: "asc" as const }, { taskId: "asc" as const }]
      : [{ taskId: "asc" as const }, { sample: "asc" as const }];
  const ids = (
    await prisma.episode.findMany({ where: { runId, status: "done" }, orderBy: order, select: { id: true } })
  ).map((e) => e.id);
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    const rows = new Map(
      (await prisma.episode.findMany({ where: { id: { in: chunk } }, include: { task: true } })).map((e) => [e.id, e]),
    );
    for (const id of chunk) {
      const episode = rows.get(id)!;
      const turns = await loadTurns(prisma, episode.id);
      const task = episode.task;
      yield toOfficialTrajectory(
        {
          benchmark: task.benchmark,
          problemDescription: task.problemDescription,
          groundTruth: task.groundTruth,
          hiddenInformation: task.hiddenInformation,
          testCases: (task.testCases as TestCase[] | null) ?? null,
        },
        turns,
        episode.answer,
        episode.reward,
      );
    }
  }
}

export interface TrajectoryImport {
  runId: number;
  runName: string;
  episodes: number;
  tasksCreated: number;
  problems: string[];
}

/**
 * Loads an official trajectory file as a finished run: tasks are matched by content, samples
 * numbered per task. A file sent in parts (a browser upload) gives its lines and where they start,
 * and `append` continues the run the first part made.
 */
export async function importTrajectories(
  prisma: PrismaClient,
  file: string,
  options: {
    name?: string;
    benchmark?: Benchmark;
    onProblem?: (message: string) => void;
    lines?: Iterable<string> | AsyncIterable<string>;
    firstLine?: number;
    append?: boolean;
  },
): Promise<TrajectoryImport> {
  const name = options.name ?? `imported-${file.split(/[\\/]/).pop()}-${Date.now()}`;
  const existing = await prisma.run.findUnique({ where: { name }, select: { id: true, benchmark: true } });
  if (existing && !options.append) throw new Error(`a run named "${name}" exists already`);
  const result: TrajectoryImport = { runId: 0, runName: name, episodes: 0, tasksCreated: 0, problems: [] };
  const samples = new Map<number, number>();
  let benchmark = options.benchmark ?? existing?.benchmark;
  let runId: number | undefined = existing?.id;
  if (existing) {
    for (const g of await prisma.episode.groupBy({
      by: ["taskId"],
      where: { runId: existing.id },
      _count: { _all: true },
    }))
      samples.set(g.taskId, g._count._all);
  }

  const lines = options.lines ?? readLines(file);
  let lineNumber = (options.firstLine ?? 1) - 1;
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    const parsed = parseTrajectoryLine(line, benchmark);
    if (!parsed.ok) {
      for (const problem of parsed.problems) {
        const message = formatProblem(file, lineNumber, problem);
        result.problems.push(message);
        options.onProblem?.(message);
      }
      continue;
    }
    const { task, turns, answer, reward } = parsed.trajectory;
    benchmark ??= task.benchmark;
    runId ??= (
      await prisma.run.create({
        data: { name, benchmark: benchmarkToWrite(benchmark), status: "done", config: { imported: file, benchmark } },
      })
    ).id;
    const contentHash = taskContentHash(task);
    let stored = await prisma.task.findUnique({
      where: { benchmark_contentHash: { benchmark: task.benchmark, contentHash } },
    });
    if (!stored) {
      stored = await prisma.task.create({
        data: {
          benchmark: benchmarkToWrite(task.benchmark),
          split: "imported",
          problemDescription: task.problemDescription,
          groundTruth: task.groundTruth,
          hiddenInformation: task.hiddenInformation,
          testCases: task.testCases === null ? undefined : (task.testCases as unknown as object),
          source: file.split(/[\\/]/).pop() ?? file,
          sourceIndex: lineNumber,
          contentHash,
        },
      });
      result.tasksCreated++;
    }
    const sample = samples.get(stored.id) ?? 0;
    samples.set(stored.id, sample + 1);
    const episode = await prisma.episode.create({
      data: { runId, taskId: stored.id, sample, status: "done", answer, reward, endedAt: new Date() },
    });
    for (const turn of turns) await appendTurn(prisma, episode.id, turn);
    result.episodes++;
  }
  result.runId = runId ?? 0;
  return result;
}
