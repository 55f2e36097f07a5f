import type { PrismaClient } from "../db/generated/client";
import { isHuman, runConfigSchema } from "../runs/config";

export interface PlaySessionRow {
  runId: number;
  episodeId: number;
  taskId: number;
  benchmark: "backend" | "frontend";
  status: string;
  /** Which seats people play (the others are model servers). */
  humanAgent: boolean;
  humanSimulator: boolean;
  turns: number;
  createdAt: Date;
}

/** Episodes with a person in a seat that have not ended, newest first: where someone can join or go on. */
export async function openPlaySessions(prisma: PrismaClient, limit = 20): Promise<PlaySessionRow[]> {
  const runs = await prisma.run.findMany({
    where: { status: { in: ["pending", "running", "paused"] }, name: { startsWith: "play-" } },
    orderBy: { id: "desc" },
    take: limit,
    include: { episodes: { select: { id: true, taskId: true, status: true, _count: { select: { turns: true } } }, take: 1 } },
  });
  const rows: PlaySessionRow[] = [];
  for (const run of runs) {
    const config = runConfigSchema.safeParse(run.config);
    const episode = run.episodes[0];
    if (!config.success || !episode) continue;
    rows.push({
      runId: run.id,
      episodeId: episode.id,
      taskId: episode.taskId,
      benchmark: run.benchmark,
      status: episode.status,
      humanAgent: isHuman(config.data.agent),
      humanSimulator: isHuman(config.data.simulator),
      turns: episode._count.turns,
      createdAt: run.createdAt,
    });
  }
  return rows;
}
