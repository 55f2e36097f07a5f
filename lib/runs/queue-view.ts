import type { Store } from "../store";
import type { WorkerRow } from "../store/workers";
import { paceOf, type Pace } from "./pace";

// What the run page shows of the run queue: the workers, how much of this run waits, its pace and
// when it should be done (lib/runs/pace.ts, the same figures as the run's charts).

export interface QueueView {
  workers: Array<WorkerRow & { forRun: number }>;
  queued: number;
  remaining: number;
  pace: Pace;
}

export async function queueView(store: Store, runId: number, pace?: Pace): Promise<QueueView | null> {
  const [workers, queued, figures] = await Promise.all([
    store.workers.list(),
    store.workers.queued(runId),
    pace ? null : store.workers.paceFigures(runId),
  ]);
  if (!workers.length && !queued) return null;
  const p = pace ?? paceOf(figures!);
  return {
    workers: workers.map((w) => ({ ...w, forRun: w.jobs.filter((j) => j.runId === runId).length })),
    queued,
    remaining: p.remaining,
    pace: p,
  };
}
