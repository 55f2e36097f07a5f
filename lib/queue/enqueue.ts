import { isHuman } from "../colbench/run-config";
import type { Store } from "../store";
import { loadRunConfig } from "../runs/runner";
import type { JobQueue } from "./queue";

/**
 * Puts a run's unfinished episodes on the queue as play jobs (its episodes made first). Episodes
 * with a job waiting or being worked get none: enqueueing a run again (`colbench resume`) is safe.
 */
export async function enqueueRun(store: Store, queue: JobQueue, runId: number): Promise<{ queued: number; total: number }> {
  const config = await loadRunConfig(store, runId);
  if (isHuman(config.agent) || isHuman(config.simulator)) throw new Error("a run with a person in a seat is played in the studio, not by workers");
  await store.episodes.ensure(runId, config.taskIds, config.bestOf, false);
  const already = new Set(await store.workers.queuedEpisodes(runId));
  const todo = (await store.episodes.unfinished(runId)).filter((e) => !already.has(e.id));
  await queue.enqueue("play", todo.map((e) => ({ runId, episodeId: e.id })));
  await store.runs.setStatus(runId, "running");
  return { queued: todo.length, total: config.taskIds.length * config.bestOf };
}

/** Whether runs go on the queue: a PostgreSQL server (DATABASE_URL), unless COLBENCH_QUEUE=off. */
export function queueConfigured(db: { kind: string; url?: string }): db is { kind: "postgresql"; url: string } {
  return db.kind === "postgresql" && Boolean(db.url) && process.env.COLBENCH_QUEUE !== "off";
}
