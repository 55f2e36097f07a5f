import type { Agent, Simulator } from "../colbench/roles";
import { benchmarkOf } from "../benchmarks";
import type { RunConfig } from "../benchmarks/run-config";
import type { EventBus, RunState } from "../events";
import type { RunCountsSnapshot } from "../events";
import type { Store } from "../store";
import { executeRun, loadRunConfig, type RunServices, type RunStats } from "./runner";
import { modelServices } from "./services";

/** People in a run's seats: the studio brings them (lib/play); a terminal run has none. */
export interface SeatPlayers {
  agent?: Agent;
  simulator?: Simulator;
  episodeStarted?(episodeId: number): void;
  /** Stops waiting for any person's move (the run stops). */
  abandon(reason: string): void;
  release(): void;
}

export interface PlayRunOptions {
  /** Where every process's live views hear of this run's turns, episodes and progress. */
  bus: EventBus;
  concurrency?: number;
  signal?: AbortSignal;
  /** Takes the seats people play in this run, if any. */
  seats?: (runId: number, config: RunConfig) => SeatPlayers | null;
  /** Each change of the run's counts, unthrottled (a terminal's progress bar). */
  onProgress?: (progress: RunCountsSnapshot) => void;
  /** Overrides how episodes are played and scored (tests' scripted services). */
  services?: (config: RunConfig) => Promise<{ services: RunServices; close(): Promise<void> }>;
}

const PROGRESS_EVERY_MS = 250;

/**
 * Plays a run's unfinished episodes: opens its scorer, has model servers (or the people in its
 * seats) play, and tells the bus as it goes. `colbench run`/`resume` and the studio both call this.
 */
export async function playRun(store: Store, runId: number, options: PlayRunOptions): Promise<RunStats> {
  const config = await loadRunConfig(store, runId);
  const { bus } = options;
  let counts: RunCountsSnapshot = { done: 0, failed: 0, running: 0, total: 0, turns: 0, tokens: 0 };
  let state: RunState = "running";
  let error: string | undefined;
  // Progress ticks with every turn; other processes hear it at most every 250 ms.
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const sendProgress = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    sent = Date.now();
    bus.publish({ type: "progress", runId, state, ...counts, ...(error ? { error } : {}) });
  };
  const tick = () => {
    const wait = sent + PROGRESS_EVERY_MS - Date.now();
    if (wait <= 0) sendProgress();
    else timer ??= setTimeout(sendProgress, wait);
  };

  const seats = options.seats?.(runId, config) ?? null;
  const onAbort = () => seats?.abandon("the run was stopped");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  sendProgress();
  let opened: { services: RunServices; close(): Promise<void> } | null = null;
  try {
    opened = await (options.services ?? openRunServices)(config);
    const services: RunServices = { ...opened.services };
    if (seats?.agent) services.makeAgent = () => seats.agent!;
    if (seats?.simulator) services.makeSimulator = () => seats.simulator!;
    if (seats?.episodeStarted) services.episodeStarted = (id) => seats.episodeStarted!(id);
    const stats = await executeRun(store, runId, services, {
      concurrency: options.concurrency,
      signal: options.signal,
      publish: (event) => bus.publish(event),
      onProgress: (p) => {
        counts = p;
        options.onProgress?.(p);
        tick();
      },
    });
    state = "finished";
    return stats;
  } catch (e) {
    if (options.signal?.aborted) {
      state = "stopped";
      await store.runs.setStatus(runId, "paused").catch(() => {});
    } else {
      state = "crashed";
      error = (e as Error).message;
      await store.runs.setStatus(runId, "failed").catch(() => {});
    }
    throw e;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    seats?.release();
    await opened?.close();
    sendProgress();
  }
}

/** Model servers on both sides, answers scored by the benchmark's scorer (a worker opens these per run too). */
export async function openRunServices(config: RunConfig): Promise<{ services: RunServices; close(): Promise<void> }> {
  const runtime = await benchmarkOf(config.benchmark).runtime();
  const scorer = await runtime.openScorer(config);
  return { services: { ...scorer.services, ...modelServices(runtime, scorer) }, close: () => scorer.close() };
}
