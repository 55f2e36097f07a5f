import type { PrismaClient } from "../db/generated/client";
import type { Benchmark } from "../benchmarks";
import { z } from "zod";
import { isHuman, isPerson, playerName, playerSchema } from "../colbench/run-config";
import { knownBenchmark, storedBenchmark } from "./benchmark-names";
import { runWhere } from "./runs";
import { scoredByOf } from "../benchmarks/reward-sentence";

// Queries behind the Play pages: what a seat's page loads, and the sessions people can join.

export interface SeatEpisode {
  id: number;
  runId: number | null;
  taskId: number;
  status: string;
  reward: number | null;
  runConfig: unknown;
  benchmark: Benchmark;
  problemDescription: string;
}

/** An episode with only what every seat may see; the collaborator's page adds `hiddenOfTask`. */
export async function seatEpisode(prisma: PrismaClient, episodeId: number): Promise<SeatEpisode | null> {
  if (!Number.isSafeInteger(episodeId)) return null;
  const row = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: {
      id: true,
      runId: true,
      taskId: true,
      status: true,
      reward: true,
      run: { select: { config: true } },
      task: { select: { benchmark: true, problemDescription: true } },
    },
  });
  if (!row) return null;
  return {
    id: row.id,
    runId: row.runId,
    taskId: row.taskId,
    status: row.status,
    reward: row.reward,
    runConfig: row.run?.config ?? null,
    benchmark: storedBenchmark(row.task.benchmark, `episode ${row.id}'s task`),
    problemDescription: row.task.problemDescription,
  };
}

/** The hidden side of a task: the reference answer, what the simulator holds beside it, and tests where the task has them. */
export async function hiddenOfTask(
  prisma: PrismaClient,
  taskId: number,
): Promise<{
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: Array<{ name: string; expression: string }> | null;
}> {
  const hidden = await prisma.task.findUniqueOrThrow({
    where: { id: taskId },
    select: { groundTruth: true, hiddenInformation: true, testCases: true },
  });
  return {
    groundTruth: hidden.groundTruth,
    hiddenInformation: hidden.hiddenInformation,
    testCases: (hidden.testCases as Array<{ name: string; expression: string }> | null) ?? null,
  };
}

export interface OpenPlayRun {
  runId: number;
  benchmark: Benchmark;
  config: unknown;
  createdAt: Date;
  episode: { id: number; taskId: number; status: string; turns: number } | null;
}

/** Runs made from Play that have not ended, newest first, each with its one episode. */
export async function openPlayRuns(prisma: PrismaClient, limit: number): Promise<OpenPlayRun[]> {
  const runs = await prisma.run.findMany({
    where: {
      status: { in: ["pending", "running", "paused"] },
      kind: "played",
      archivedAt: null,
      benchmark: knownBenchmark(),
    },
    orderBy: { id: "desc" },
    take: limit,
    include: {
      episodes: { select: { id: true, taskId: true, status: true, _count: { select: { turns: true } } }, take: 1 },
    },
  });
  return runs.map((run) => {
    const episode = run.episodes[0];
    return {
      runId: run.id,
      benchmark: storedBenchmark(run.benchmark, `run ${run.name}`),
      config: run.config,
      createdAt: run.createdAt,
      episode: episode
        ? { id: episode.id, taskId: episode.taskId, status: episode.status, turns: episode._count.turns }
        : null,
    };
  });
}

/** The given task if it is of this benchmark, else a random one of it. */
export async function pickTask(prisma: PrismaClient, benchmark: Benchmark, taskId?: number): Promise<number> {
  if (taskId !== undefined) {
    const task = await prisma.task.findUnique({ where: { id: taskId }, select: { benchmark: true } });
    if (!task) throw new Error(`taskId: no task ${taskId}`);
    if (task.benchmark !== benchmark)
      throw new Error(`taskId: task ${taskId} is a ${task.benchmark} task, not ${benchmark}`);
    return taskId;
  }
  const count = await prisma.task.count({ where: { benchmark } });
  if (count === 0) throw new Error(`there are no ${benchmark} tasks: import some with \`colbench import\``);
  const [task] = await prisma.task.findMany({
    where: { benchmark },
    orderBy: { id: "asc" },
    skip: Math.floor(Math.random() * count),
    take: 1,
    select: { id: true },
  });
  return task!.id;
}

export interface SessionRow {
  runId: number;
  runName: string;
  benchmark: Benchmark;
  /** The seat a person held: the agent's, the collaborator's, or both (two people). */
  seat: "agent" | "collaborator" | "both";
  /** Who played the other side: a model, or "human". */
  opponent: string;
  status: string;
  createdAt: Date;
  archivedAt: Date | null;
  /** What made the reward, where the benchmark names it (a similarity's embedder). */
  scoredBy: string | null;
  episode: {
    id: number;
    taskId: number;
    problemDescription: string;
    status: string;
    reward: number | null;
    turns: number;
  } | null;
}

const sides = z.object({ agent: playerSchema, simulator: playerSchema });

/** Played sessions (runs of kind played), newest first, each with its one episode. */
export async function listSessions(
  prisma: PrismaClient,
  filter: { includeArchived?: boolean } = {},
): Promise<SessionRow[]> {
  const runs = await prisma.run.findMany({
    where: runWhere({ kind: "played", includeArchived: filter.includeArchived }),
    orderBy: { id: "desc" },
    include: {
      episodes: {
        take: 1,
        orderBy: { id: "asc" },
        select: {
          id: true,
          taskId: true,
          status: true,
          reward: true,
          task: { select: { problemDescription: true } },
          _count: { select: { turns: true } },
        },
      },
    },
  });
  return runs.map((run) => {
    const config = sides.safeParse(run.config);
    const agentHuman = config.success && isPerson(config.data.agent);
    const simulatorHuman = config.success && isHuman(config.data.simulator);
    const seat = agentHuman && simulatorHuman ? "both" : agentHuman ? "agent" : "collaborator";
    const opponent = !config.success
      ? "unknown"
      : seat === "both"
        ? "human"
        : playerName(seat === "agent" ? config.data.simulator : config.data.agent);
    const e = run.episodes[0];
    const benchmark = storedBenchmark(run.benchmark, `run ${run.name}`);
    return {
      runId: run.id,
      runName: run.name,
      benchmark,
      scoredBy: scoredByOf(benchmark, run.config),
      seat,
      opponent,
      status: run.status,
      createdAt: run.createdAt,
      archivedAt: run.archivedAt,
      episode: e
        ? {
            id: e.id,
            taskId: e.taskId,
            problemDescription: e.task.problemDescription,
            status: e.status,
            reward: e.reward,
            turns: e._count.turns,
          }
        : null,
    };
  });
}
