import { EventEmitter } from "node:events";
import { runEpisode, type EpisodeEvents, type EpisodeOutcome, type PageRenderer } from "../colbench/episode";
import type { Agent, HiddenTask, Simulator } from "../colbench/roles";
import { isHuman, isLocal } from "../colbench/run-config";
import { benchmarkOf } from "../benchmarks";
import { runConfigSchema, type RunConfig } from "../benchmarks/run-config";
import type { RunCountsSnapshot, RunEvent } from "../events";
import type { Store } from "../store";
import { describeFailure } from "../colbench/failure";
import { failureFrom } from "./failure";
import { ClaimLost, type PendingEpisode, type RunCounts } from "../store/episodes";
import { CLAIM_LEASE_MS, processOwner } from "./owner";
import { currentOutages, outageEvents, type Outage } from "../models/breaker";
import { serverUrls } from "../colbench/server-spec";

export type { EpisodeScore } from "../benchmarks/scorer";
import type { EpisodeScore } from "../benchmarks/scorer";

/** What a run needs besides the database: who plays each side, how answers are scored. */
export interface RunServices {
  makeAgent(config: RunConfig): Agent;
  makeSimulator(config: RunConfig): Simulator;
  score(task: HiddenTask, outcome: EpisodeOutcome): Promise<EpisodeScore>;
  renderer?: PageRenderer;
  /** Told as an episode starts, before its first move (people in seats learn which episode they play). */
  episodeStarted?(episodeId: number): void;
}

export interface RunStats {
  counts: RunCounts;
  episodes: number;
  turns: number;
  tokens: number;
  wallMs: number;
  /** Summed over episodes: time inside episodes, and the part of it spent waiting for model servers. */
  episodeMs: number;
  waitMs: number;
  /** Summed over episodes: time spent scoring answers. */
  scoreMs: number;
  /** Episodes dropped because their claim was lost to another process (taken over while this one was away). */
  lost: number;
}

export interface ExecuteOptions {
  concurrency?: number;
  /** Where the run's turn and episode events go (an event bus's publish). */
  publish?: (event: RunEvent) => void;
  onProgress?: (progress: RunCountsSnapshot) => void;
  signal?: AbortSignal;
  /** The claimant written on episodes this call plays (default: this process). */
  owner?: string;
  leaseMs?: number;
  /**
   * Only these episodes (a worker's jobs, lib/queue): they exist already, and the run is marked done
   * or failed only when none of its episodes is left to play, by whichever call ends the last one.
   */
  episodeIds?: number[];
  /**
   * Leaves scoring to someone else (a worker without the scorer's parts): a played episode's claim is
   * let go with its dialogue stored, and this is told its id; whoever claims it next finds every turn
   * stored and only scores it.
   */
  deferScore?: (episodeId: number) => Promise<void>;
  /** Told once for each episode dropped because its claim was lost. */
  log?: (line: string) => void;
}

export async function loadRunConfig(store: Store, runId: number): Promise<RunConfig> {
  const run = await store.runs.find(runId);
  if (!run) throw new Error(`no run ${runId}`);
  return runConfigSchema.parse(run.config);
}

/** Episode ids per `waiting` event: a few hundred keep a notification far below its 8000 bytes. */
const WAITING_IDS_PER_EVENT = 200;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Plays every unfinished episode of a run to the end and scores it. Safe to call again after a
 * crash at any point, and from several processes at once: each episode is claimed before it is
 * played (one claimer wins), finished episodes are left alone, interrupted ones continue from their
 * last stored turn, and one another process holds are waited for, and taken over if its claim
 * lapses (that process died).
 */
export async function executeRun(
  store: Store,
  runId: number,
  services: RunServices,
  options: ExecuteOptions = {},
): Promise<RunStats> {
  const started = performance.now();
  const { play, unfinished } = await openPlay(store, runId, services, options);
  play.report();
  const stopWatching = watchOutages(play);
  // A database that does not answer is not a lost claim: the next renewal or write tells.
  const heartbeat = setInterval(() => void renewHeld(play).catch(() => {}), play.leaseMs / 3);
  heartbeat.unref();
  try {
    await claimAndPlay(play, unfinished);
    await waitForHeld(play);
  } finally {
    clearInterval(heartbeat);
    stopWatching();
    // A stopped run's interrupted episodes are free at once, not after the lease runs out.
    if (options.signal?.aborted) await store.episodes.releaseClaims(runId, play.owner).catch(() => {});
  }

  const { stats } = play;
  stats.counts = await store.runs.counts(runId);
  stats.wallMs = performance.now() - started;
  const open = stats.counts.pending + stats.counts.running;
  if (!play.only || open === 0)
    await store.runs.setStatus(runId, stats.counts.done === stats.counts.total ? "done" : "failed");
  return stats;
}

/** What the parts of one `executeRun` call share: the run, its players, the claims held and the counts so far. */
interface Play {
  store: Store;
  runId: number;
  services: RunServices;
  options: ExecuteOptions;
  config: RunConfig;
  rules: ReturnType<typeof benchmarkOf>["episode"];
  agent: Agent;
  simulator: Simulator;
  owner: string;
  leaseMs: number;
  /** `options.episodeIds` as a set, or null when the whole run is played. */
  only: Set<number> | null;
  publish: (event: RunEvent) => void;
  stats: RunStats;
  progress: RunCountsSnapshot;
  report(): void;
  // The claims this call holds now, with what stops each episode's play when its claim turns out lost.
  holding: Map<number, { claim: number; lost: AbortController }>;
  // Episodes another process was playing when this call looked: waited for, taken over if its claim lapses.
  held: PendingEpisode[];
  /** The outage of a server the run needs, if one is down now. */
  outageNow(): Outage | null;
  /** Stores and tells, for the given claims, whether they wait for a server (set by `watchOutages`). */
  tellWaiting(claims: () => Array<{ episodeId: number; claim: number }>): Promise<void>;
}

/** Loads the run, makes its episodes (a whole run), marks it running and lists what is left to play. */
async function openPlay(
  store: Store,
  runId: number,
  services: RunServices,
  options: ExecuteOptions,
): Promise<{ play: Play; unfinished: PendingEpisode[] }> {
  const config = await loadRunConfig(store, runId);
  const only = options.episodeIds ? new Set(options.episodeIds) : null;
  if (!only) await store.episodes.ensure(runId, config.taskIds, config.bestOf, isHuman(config.simulator));
  const unfinished = (await store.episodes.unfinished(runId, options.episodeIds)).filter(
    (e) => !only || only.has(e.id),
  );
  const before = await store.runs.counts(runId);
  await store.runs.setStatus(runId, "running");
  const progress: RunCountsSnapshot = {
    done: before.done,
    failed: 0,
    running: 0,
    total: before.total,
    turns: 0,
    tokens: 0,
  };
  const play: Play = {
    store,
    runId,
    services,
    options,
    config,
    rules: benchmarkOf(config.benchmark).episode,
    agent: services.makeAgent(config),
    simulator: services.makeSimulator(config),
    owner: options.owner ?? processOwner(),
    leaseMs: options.leaseMs ?? CLAIM_LEASE_MS,
    only,
    publish: options.publish ?? (() => {}),
    stats: {
      counts: before,
      episodes: 0,
      turns: 0,
      tokens: 0,
      wallMs: 0,
      episodeMs: 0,
      waitMs: 0,
      scoreMs: 0,
      lost: 0,
    },
    progress,
    report: () => options.onProgress?.({ ...progress }),
    holding: new Map(),
    held: [],
    outageNow: () => null,
    tellWaiting: async () => {},
  };
  return { play, unfinished };
}

/**
 * While a server the run needs is down, its played episodes say so (run page, episode page, `runs list`,
 * seats). Sets `play.outageNow` and `play.tellWaiting`; returns what stops listening.
 */
function watchOutages(play: Play): () => void {
  const { config, store, runId, holding } = play;
  const servers = new Set(
    [config.agent, config.simulator].flatMap((p) => (isHuman(p) || isLocal(p) ? [] : serverUrls(p))),
  );
  play.outageNow = () => currentOutages().find((o) => servers.has(o.server)) ?? null;
  // Server and cause are cut to a line: they travel in notifications, whose payload is small.
  const waitOf = (o: Outage | null) =>
    o ? { server: o.server.slice(0, 300), cause: o.cause.slice(0, 300), since: new Date(o.since).toISOString() } : null;
  // Stored, then told, one change at a time with the outage as it stands when its turn comes: a
  // down and an up heard close together end on the up. Only the episodes whose claims still hold
  // are told of, in events of a few hundred ids.
  let telling = Promise.resolve();
  play.tellWaiting = (claims) => {
    telling = telling
      .then(async () => {
        const wait = waitOf(play.outageNow());
        const ids = await store.episodes.setWaiting(claims(), wait);
        for (let i = 0; i < ids.length; i += WAITING_IDS_PER_EVENT)
          play.publish({ type: "waiting", runId, episodeIds: ids.slice(i, i + WAITING_IDS_PER_EVENT), wait });
      })
      .catch(() => {});
    return telling;
  };
  const onOutage = (server: string) => {
    if (servers.has(server))
      void play.tellWaiting(() => [...holding].map(([episodeId, { claim }]) => ({ episodeId, claim })));
  };
  outageEvents.on("change", onOutage);
  return () => outageEvents.off("change", onOutage);
}

/** Claims each episode of `queue` and plays it, `concurrency` at once; those another process holds go to `play.held`. */
async function claimAndPlay(play: Play, queue: PendingEpisode[]): Promise<void> {
  const { store, options } = play;
  let next = 0;
  const workers = Array.from(
    { length: Math.min(options.concurrency ?? play.config.concurrency, Math.max(queue.length, 1)) },
    async () => {
      while (next < queue.length) {
        options.signal?.throwIfAborted();
        const episode = queue[next++]!;
        const claim = await store.episodes.claim(episode.id, play.owner, play.leaseMs);
        if (claim !== null) await playOne(play, episode, claim);
        else play.held.push(episode);
      }
    },
  );
  await Promise.all(workers);
}

/** Waits for the episodes other processes hold to end, and plays those whose claims lapse. */
async function waitForHeld(play: Play): Promise<void> {
  const { store, options } = play;
  while (play.held.length) {
    options.signal?.throwIfAborted();
    const now = Date.now();
    const claims = await store.episodes.claims(play.held.map((e) => e.id));
    const running = claims.filter((c) => c.status === "running");
    const lapsed = new Set(running.filter((c) => !c.leaseUntil || c.leaseUntil.getTime() <= now).map((c) => c.id));
    const waiting = running.filter((c) => !lapsed.has(c.id));
    const retry = play.held.filter((e) => lapsed.has(e.id));
    play.held = play.held.filter((e) => waiting.some((c) => c.id === e.id));
    if (retry.length) {
      await claimAndPlay(play, retry);
      continue;
    }
    if (!play.held.length) break;
    const soonest = Math.min(...waiting.map((c) => c.leaseUntil!.getTime()));
    await sleep(Math.min(Math.max(soonest - now + 50, 200), 5000), options.signal);
  }
}

/**
 * Renewal names each claim's token: one not renewed was taken over, and its play stops at once
 * (its model calls are aborted) rather than at its next write.
 */
async function renewHeld(play: Play): Promise<void> {
  const { holding } = play;
  const claims = [...holding].map(([episodeId, { claim }]) => ({ episodeId, claim }));
  if (!claims.length) return;
  const kept = await play.store.episodes.renewClaims(claims, play.leaseMs);
  for (const { episodeId, claim } of claims) {
    const held = holding.get(episodeId);
    if (!kept.has(episodeId) && held?.claim === claim)
      held.lost.abort(new ClaimLost(episodeId, claim, "lease not renewed"));
  }
}

/** Plays one claimed episode from its last stored turn, then scores and finishes it (or fails it, or drops it). */
async function playOne(play: Play, episode: PendingEpisode, claim: number): Promise<void> {
  const { store, runId, services, options, stats, progress } = play;
  const episodeStart = performance.now();
  const lost = new AbortController();
  play.holding.set(episode.id, { claim, lost });
  const signal = options.signal ? AbortSignal.any([options.signal, lost.signal]) : lost.signal;
  progress.running++;
  play.report();
  const about = { runId, episodeId: episode.id, taskId: episode.taskId, sample: episode.sample };
  play.publish({ type: "episode", ...about, status: "running" });
  if (play.outageNow()) await play.tellWaiting(() => [{ episodeId: episode.id, claim }]);
  // Turns stored so far: an episode that fails before any model replied says it was never started.
  const turns: { stored?: number } = {};
  try {
    services.episodeStarted?.(episode.id);
    const outcome = await runEpisode({
      task: episode.task,
      rules: play.rules,
      agent: play.agent,
      simulator: play.simulator,
      renderer: services.renderer,
      persist: (turn) => store.episodes.appendTurn(episode.id, turn, claim),
      // Read after the claim: a process that held it before may have stored turns since the queue was made.
      resumeFrom: await store.episodes.turns(episode.id).then((stored) => ((turns.stored = stored.length), stored)),
      maxAgentTurns: play.config.maxAgentTurns,
      events: countTurns(play, episode.id, turns),
      signal,
    });
    stats.waitMs += outcome.waitMs;
    if (options.deferScore) {
      await store.episodes.releaseClaim(episode.id, claim);
      await options.deferScore(episode.id);
      return;
    }
    const scoreStart = performance.now();
    const score = await services.score(episode.task, outcome);
    stats.scoreMs += performance.now() - scoreStart;
    await store.episodes.finish(
      episode.id,
      { answer: outcome.answer, reward: score.reward, details: score.details },
      claim,
    );
    progress.done++;
    play.publish({ type: "episode", ...about, status: "done", reward: score.reward });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    await failOrDrop(play, about, claim, lost, turns.stored, error);
  } finally {
    play.holding.delete(episode.id);
    progress.running--;
    stats.episodes++;
    stats.episodeMs += performance.now() - episodeStart;
    play.report();
  }
}

/** The episode's turn events: counted into the run's progress and published as they are stored. */
function countTurns(play: Play, episodeId: number, turns: { stored?: number }): EventEmitter<EpisodeEvents> {
  const { progress, stats } = play;
  const events = new EventEmitter<EpisodeEvents>();
  events.on("turn", (turn) => {
    turns.stored = (turns.stored ?? 0) + 1;
    progress.turns++;
    stats.turns++;
    const tokens = (turn.usage?.promptTokens ?? 0) + (turn.usage?.completionTokens ?? 0);
    progress.tokens += tokens;
    stats.tokens += tokens;
    play.publish({ type: "turn", runId: play.runId, episodeId, index: turn.index, role: turn.role });
    play.report();
  });
  return events;
}

/**
 * An episode whose play threw: stored as failed (with the moves made, when any turn was stored), or
 * dropped when its claim was lost: another process holds it now and finishes it, and whatever this one
 * still had is not written.
 */
async function failOrDrop(
  play: Play,
  about: { runId: number; episodeId: number; taskId: number; sample: number },
  claim: number,
  lost: AbortController,
  turns: number | undefined,
  error: unknown,
): Promise<void> {
  try {
    if (error instanceof ClaimLost || lost.signal.aborted) throw lost.signal.reason ?? error;
    // The task's description, when it opens the dialogue, is stored before any model is asked.
    const moves = turns === undefined ? undefined : Math.max(0, turns - (play.rules.simulatorOpens ? 0 : 1));
    const failure = { ...failureFrom(error), ...(moves !== undefined ? { moves } : {}) };
    await play.store.episodes.fail(about.episodeId, failure, claim);
    play.progress.failed++;
    play.publish({ type: "episode", ...about, status: "failed", error: describeFailure(failure) });
  } catch (dropped) {
    if (!(dropped instanceof ClaimLost)) throw dropped;
    play.stats.lost++;
    play.options.log?.(`episode ${about.episodeId}: dropped, its claim was taken over (${dropped.message})`);
  }
}
