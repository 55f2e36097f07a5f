import { EventEmitter } from "node:events";
import type { PrismaClient } from "../db/generated/client";
import { runEpisode, type EpisodeEvents, type EpisodeOutcome, type PageRenderer, type TurnRecord } from "../colbench/episode";
import type { Agent, HiddenTask, Simulator } from "../colbench/roles";
import {
  appendTurn,
  ensureEpisodes,
  failEpisode,
  finishEpisode,
  loadTurns,
  markRunning,
  runCounts,
  unfinishedEpisodes,
  type RunCounts,
} from "../store/episodes";
import { isHuman, runConfigSchema, type RunConfig } from "./config";

export interface EpisodeScore {
  reward: number;
  details: unknown;
}

/** What a run needs besides the database: who plays each side, how answers are scored. */
export interface RunServices {
  makeAgent(config: RunConfig): Agent;
  makeSimulator(config: RunConfig): Simulator;
  score(task: HiddenTask, outcome: EpisodeOutcome): Promise<EpisodeScore>;
  renderer?: PageRenderer;
}

export interface RunEvents {
  turn: [{ episodeId: number; turn: TurnRecord }];
  episode: [{ episodeId: number; taskId: number; sample: number; status: "running" | "done" | "failed"; reward?: number; error?: string }];
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
}

export interface ExecuteOptions {
  concurrency?: number;
  events?: EventEmitter<RunEvents>;
  onProgress?: (progress: { done: number; failed: number; running: number; total: number; turns: number; tokens: number }) => void;
  signal?: AbortSignal;
}

export async function loadRunConfig(prisma: PrismaClient, runId: number): Promise<RunConfig> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
  return runConfigSchema.parse(run.config);
}

/**
 * Plays every unfinished episode of a run to the end and scores it. Safe to call again after a
 * crash at any point: finished episodes are left alone, interrupted ones continue from their last
 * stored turn, and the (run, task, sample) key makes a duplicate episode impossible.
 */
export async function executeRun(prisma: PrismaClient, runId: number, services: RunServices, options: ExecuteOptions = {}): Promise<RunStats> {
  const started = performance.now();
  const config = await loadRunConfig(prisma, runId);
  await ensureEpisodes(prisma, runId, config.taskIds, config.bestOf, isHuman(config.simulator));
  const queue = await unfinishedEpisodes(prisma, runId);
  const before = await runCounts(prisma, runId);
  await prisma.run.update({ where: { id: runId }, data: { status: "running" } });

  const agent = services.makeAgent(config);
  const simulator = services.makeSimulator(config);
  const stats: RunStats = { counts: before, episodes: 0, turns: 0, tokens: 0, wallMs: 0, episodeMs: 0, waitMs: 0, scoreMs: 0 };
  const progress = { done: before.done, failed: 0, running: 0, total: before.total, turns: 0, tokens: 0 };
  const report = () => options.onProgress?.({ ...progress });
  report();

  const playOne = async (episode: (typeof queue)[number]) => {
    const episodeStart = performance.now();
    progress.running++;
    report();
    options.events?.emit("episode", { episodeId: episode.id, taskId: episode.taskId, sample: episode.sample, status: "running" });
    try {
      await markRunning(prisma, episode.id);
      const events = new EventEmitter<EpisodeEvents>();
      events.on("turn", (turn) => {
        progress.turns++;
        stats.turns++;
        const tokens = (turn.usage?.promptTokens ?? 0) + (turn.usage?.completionTokens ?? 0);
        progress.tokens += tokens;
        stats.tokens += tokens;
        options.events?.emit("turn", { episodeId: episode.id, turn });
        report();
      });
      const outcome = await runEpisode({
        task: episode.task,
        agent,
        simulator,
        renderer: services.renderer,
        persist: (turn) => appendTurn(prisma, episode.id, turn),
        resumeFrom: episode.status === "pending" ? [] : await loadTurns(prisma, episode.id),
        maxAgentTurns: config.maxAgentTurns,
        events,
        signal: options.signal,
      });
      stats.waitMs += outcome.waitMs;
      const scoreStart = performance.now();
      const score = await services.score(episode.task, outcome);
      stats.scoreMs += performance.now() - scoreStart;
      await finishEpisode(prisma, episode.id, { answer: outcome.answer, reward: score.reward, details: score.details });
      progress.done++;
      options.events?.emit("episode", { episodeId: episode.id, taskId: episode.taskId, sample: episode.sample, status: "done", reward: score.reward });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const message = (error as Error).message;
      await failEpisode(prisma, episode.id, message);
      progress.failed++;
      options.events?.emit("episode", { episodeId: episode.id, taskId: episode.taskId, sample: episode.sample, status: "failed", error: message });
    } finally {
      progress.running--;
      stats.episodes++;
      stats.episodeMs += performance.now() - episodeStart;
      report();
    }
  };

  let next = 0;
  const workers = Array.from({ length: Math.min(options.concurrency ?? config.concurrency, Math.max(queue.length, 1)) }, async () => {
    while (next < queue.length) {
      options.signal?.throwIfAborted();
      await playOne(queue[next++]!);
    }
  });
  await Promise.all(workers);

  stats.counts = await runCounts(prisma, runId);
  stats.wallMs = performance.now() - started;
  await prisma.run.update({
    where: { id: runId },
    data: { status: stats.counts.done === stats.counts.total ? "done" : "failed" },
  });
  return stats;
}
