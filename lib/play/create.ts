import type { PrismaClient } from "../db/generated/client";
import type { Benchmark } from "../colbench/tasks";
import { parseServerSpec } from "../models/spec";
import type { Player } from "../runs/config";
import type { RunManager } from "../runs/manager";
import { ensureEpisodes } from "../store/episodes";

/** Who a person plays, and who plays the other side. */
export interface NewPlay {
  benchmark: Benchmark;
  /** A task id; a random task of the benchmark when absent. */
  taskId?: number;
  /** "simulator" is the collaborator's seat; "both" means two people, one per seat. */
  seat: "agent" | "simulator" | "both";
  /** The other side's model server as URL#MODEL, or "human" for a second person. */
  opponent?: string;
}

export interface PlaySession {
  runId: number;
  episodeId: number;
  taskId: number;
}

async function pickTask(prisma: PrismaClient, benchmark: Benchmark, taskId?: number): Promise<number> {
  if (taskId !== undefined) {
    const task = await prisma.task.findUnique({ where: { id: taskId }, select: { benchmark: true } });
    if (!task) throw new Error(`taskId: no task ${taskId}`);
    if (task.benchmark !== benchmark) throw new Error(`taskId: task ${taskId} is a ${task.benchmark} task, not ${benchmark}`);
    return taskId;
  }
  const count = await prisma.task.count({ where: { benchmark } });
  if (count === 0) throw new Error(`there are no ${benchmark} tasks: import some with \`colbench import\``);
  const [task] = await prisma.task.findMany({ where: { benchmark }, orderBy: { id: "asc" }, skip: Math.floor(Math.random() * count), take: 1, select: { id: true } });
  return task!.id;
}

/** Makes a one-episode run with a person on one side (or both) and starts it in the studio. */
export async function createPlay(prisma: PrismaClient, manager: RunManager, spec: NewPlay): Promise<PlaySession> {
  const human: Player = { human: true };
  const opponent = (side: string): Player => {
    if (spec.seat === "both" || !spec.opponent || spec.opponent.trim() === "human") return human;
    return parseServerSpec(spec.opponent.trim(), side);
  };
  const agent = spec.seat === "simulator" ? opponent("opponent (agent)") : human;
  const simulator = spec.seat === "agent" ? opponent("opponent (simulator)") : human;
  const taskId = await pickTask(prisma, spec.benchmark, spec.taskId);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "");
  const runId = await manager.create(
    { benchmark: spec.benchmark, selector: `ids=${taskId}`, agent, simulator, temperature: 0, name: `play-${spec.benchmark}-${taskId}-${stamp}-${Math.random().toString(36).slice(2, 6)}` },
    { start: false },
  );
  // Made here (the runner would make it too) so the seats' links exist before the first move.
  await ensureEpisodes(prisma, runId, [taskId], 1, simulator === human);
  const episode = await prisma.episode.findFirstOrThrow({ where: { runId }, select: { id: true } });
  manager.start(runId);
  return { runId, episodeId: episode.id, taskId };
}
