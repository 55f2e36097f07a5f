import type { Store } from "../store";
import type { WorkerRow } from "../store/workers";

// What the run page shows of the run queue: the workers, how much of this run waits, how fast its
// episodes end lately, and when it should be done at that pace.

export interface QueueView {
  workers: Array<WorkerRow & { forRun: number }>;
  queued: number;
  remaining: number;
  /** Episodes ended per minute over the last minutes (null before any ended). */
  perMinute: number | null;
  /** Milliseconds left at that pace (null when unknown). */
  etaMs: number | null;
}

export async function queueView(store: Store, runId: number): Promise<QueueView | null> {
  const [workers, t] = await Promise.all([store.workers.list(), store.workers.throughput(runId, 5 * 60_000)]);
  if (!workers.length && !t.queued) return null;
  const perMinute = t.ended ? t.ended / (t.windowMs / 60_000) : null;
  return {
    workers: workers.map((w) => ({ ...w, forRun: w.jobs.filter((j) => j.runId === runId).length })),
    queued: t.queued,
    remaining: t.remaining,
    perMinute,
    etaMs: perMinute && t.remaining ? (t.remaining / perMinute) * 60_000 : null,
  };
}
