import { isHuman } from "../colbench/run-config";
import type { Store } from "../store";
import { loadRunConfig } from "../runs/runner";
import { rankSettingsForRun } from "../sweet/run-template";
import type { JobQueue } from "./queue";

/**
 * Puts a run's unfinished episodes on the queue as play jobs (its episodes made first). Episodes
 * with a job waiting or being worked get none: enqueueing a run again (`colbench resume`) is safe.
 */
export async function enqueueRun(
  store: Store,
  queue: JobQueue,
  runId: number,
): Promise<{ queued: number; total: number }> {
  const config = await loadRunConfig(store, runId);
  if (isHuman(config.agent) || isHuman(config.simulator))
    throw new Error("a run with a person in a seat is played in the studio, not by workers");
  await store.episodes.ensure(runId, config.taskIds, config.bestOf, false);
  const already = new Set(await store.workers.queuedEpisodes(runId));
  const todo = (await store.episodes.unfinished(runId)).filter((e) => !already.has(e.id));
  await queue.enqueue(
    "play",
    todo.map((e) => ({ runId, episodeId: e.id })),
  );
  await store.runs.setStatus(runId, "running");
  return { queued: todo.length, total: config.taskIds.length * config.bestOf };
}

/** Whether runs go on the queue: a PostgreSQL server (DATABASE_URL), unless COLBENCH_QUEUE=off. */
export function queueConfigured(db: { kind: string; url?: string }): db is { kind: "postgresql"; url: string } {
  return db.kind === "postgresql" && Boolean(db.url) && process.env.COLBENCH_QUEUE !== "off";
}

export interface QueuedCandidates {
  policy: string;
  n: number;
  fraction: number;
  /** The run's recorded chat template (lib/sweet/run-template.ts), by name. */
  template: string;
}

/** SWEET-RL step 2 as jobs: one per state that lacks candidates. */
export async function enqueueCandidates(
  store: Store,
  queue: JobQueue,
  runId: number,
  settings: QueuedCandidates,
): Promise<{ states: number; queued: number }> {
  const states = await store.sweet.states(runId, settings.fraction);
  const todo = states.filter((s) => s.candidates < settings.n + 1);
  const stepId = await store.workers.insertStep(runId, "candidates", { ...settings });
  await queue.enqueue(
    "sample",
    todo.map((s) => ({ runId, stepId, turnId: s.turnId })),
  );
  return { states: states.length, queued: todo.length };
}

export interface QueuedRank {
  critic: string;
  groundTruth: boolean;
  sum: boolean;
  /** The run's recorded chat template (lib/sweet/run-template.ts), by name. */
  template: string;
}

/** SWEET-RL step 3 as jobs: one per state with candidates not yet ranked. */
export async function enqueueRank(
  store: Store,
  queue: JobQueue,
  runId: number,
  settings: QueuedRank,
): Promise<{ candidates: number; queued: number }> {
  const todo = await store.sweet.unranked(runId);
  // The workers rank with the queued settings: recorded (or checked against the run's record) here.
  await rankSettingsForRun(store, runId, settings, { record: todo.length > 0 });
  const turns = [...new Set(todo.map((c) => c.turnId))];
  const stepId = await store.workers.insertStep(runId, "rank", { ...settings });
  await queue.enqueue(
    "rank",
    turns.map((turnId) => ({ runId, stepId, turnId })),
  );
  return { candidates: todo.length, queued: turns.length };
}

/**
 * Stops a queued run: its waiting jobs are cancelled and it is paused; episodes being played finish
 * where they are. Resume (or `colbench resume`) enqueues what is left.
 */
export async function dequeueRun(store: Store, runId: number): Promise<number> {
  const cancelled = await store.workers.cancelWaitingJobs(runId);
  await store.runs.setStatus(runId, "paused");
  return cancelled;
}
