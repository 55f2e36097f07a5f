import type { Benchmark } from "../benchmarks";
import { isHuman, isPerson } from "../colbench/run-config";
import { runConfigSchema } from "../benchmarks/run-config";
import type { Store } from "../store";

export interface PlaySessionRow {
  runId: number;
  episodeId: number;
  taskId: number;
  benchmark: Benchmark;
  status: string;
  /** Which seats people play (the others are model servers). */
  humanAgent: boolean;
  humanSimulator: boolean;
  turns: number;
  createdAt: Date;
}

/** Episodes with a person in a seat that have not ended, newest first: where someone can join or go on. */
export async function openPlaySessions(store: Store, limit = 20): Promise<PlaySessionRow[]> {
  const rows: PlaySessionRow[] = [];
  for (const run of await store.runs.openPlays(limit)) {
    const config = runConfigSchema.safeParse(run.config);
    if (!config.success || !run.episode) continue;
    rows.push({
      runId: run.runId,
      episodeId: run.episode.id,
      taskId: run.episode.taskId,
      benchmark: run.benchmark,
      status: run.episode.status,
      humanAgent: isPerson(config.data.agent),
      humanSimulator: isHuman(config.data.simulator),
      turns: run.episode.turns,
      createdAt: run.createdAt,
    });
  }
  return rows;
}
