import os from "node:os";
import { benchmarkOf } from "../benchmarks";
import type { RunConfig } from "../benchmarks/run-config";
import type { EventBus } from "../events";
import type { Store } from "../store";
import { JobLost, type HeldJob, type JobFence } from "../store/workers";
import { CLAIM_LEASE_MS, processOwner } from "../runs/owner";
import { openRunServices } from "../runs/play-run";
import { modelServices } from "../runs/services";
import { executeRun, loadRunConfig, type RunServices } from "../runs/runner";
import { queueName, type JobData, type JobKind } from "./kinds";
import { parseServerSpec } from "../colbench/server-spec";
import { OpenAICompatibleClient } from "../models/openai-client";
import { templateForRun } from "../sweet/run-template";
import { rankState, sampleState } from "../sweet/pipeline";
import type { FetchedJob, JobQueue } from "./queue";

export interface WorkerOptions {
  store: Store;
  queue: JobQueue;
  /** Where the turns, episodes and progress it plays are told (PgBus: every studio hears them). */
  bus: EventBus;
  kinds: JobKind[];
  /** Jobs worked at once. */
  concurrency: number;
  /** How long its beat and its episode claims hold; a worker silent that long is taken for dead. */
  leaseMs?: number;
  /** How often it asks for jobs while the queue is empty. */
  pollMs?: number;
  /** Overrides how a run's episodes are played and scored (tests' scripted services). */
  services?: (config: RunConfig) => Promise<{ services: RunServices; close(): Promise<void> }>;
  log?: (line: string) => void;
}

interface Held {
  job: FetchedJob;
  controller: AbortController;
  done: Promise<void>;
}

interface OpenServices {
  ready: Promise<{ services: RunServices; close(): Promise<void> }>;
  users: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}

const PROGRESS_EVERY_MS = 250;

/**
 * A worker that does not score: episodes of most benchmarks need only the model servers (no Python
 * sandbox); those whose answers are pages still render them as they play, so they open the
 * scorer's browser.
 */
async function openPlayingServices(config: RunConfig): Promise<{ services: RunServices; close(): Promise<void> }> {
  const module = benchmarkOf(config.benchmark);
  if (module.episode.pageOf) return openRunServices(config);
  const noScorer = {
    score: () => Promise.reject(new Error("this worker does not score (--kinds without score)")),
    close: async () => {},
  };
  return { services: modelServices(await module.runtime(), noScorer), close: async () => {} };
}
/** A run's scorer (Python sandbox, browsers) stays open this long after its last job here. */
const SERVICES_IDLE_MS = 30_000;

/**
 * One `colbench worker`: takes jobs from the run queue, plays them through the same `executeRun`
 * the single-process runner uses (claims with its own owner name and lease, resume from the last
 * stored turn), says every third of its lease that it is alive and what it holds, and hands back
 * the jobs of workers that fell silent.
 */
export class QueueWorker {
  readonly owner = processOwner();
  private readonly held = new Map<string, Held>();
  private readonly runs = new Map<number, OpenServices>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private stopping = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private beatTimer: ReturnType<typeof setInterval> | null = null;
  private finished = 0;
  private dropped = 0;
  private readonly progressAt = new Map<number, ReturnType<typeof setTimeout> | null>();
  private hurried: (() => void) | null = null;

  constructor(private readonly options: WorkerOptions) {
    this.leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Jobs this worker has completed (not counting those it handed back). */
  get done(): number {
    return this.finished;
  }

  /** Jobs dropped because their episode's claim was lost (another worker took it over while this one was away). */
  get lost(): number {
    return this.dropped;
  }

  async start(): Promise<void> {
    await this.beat();
    this.beatTimer = setInterval(() => void this.beatAndReap(), Math.max(this.leaseMs / 3, 100));
    this.loop = this.dispatch();
  }

  /**
   * Stops taking jobs; those in hand get `graceMs` to finish, then are stopped between turns and
   * handed back (their episodes' claims let go at once, so another worker resumes them right away).
   */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    const all = () => Promise.all([...this.held.values()].map((h) => h.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      all(),
      new Promise<void>((resolve) => ((timer = setTimeout(resolve, graceMs)), (this.hurried = resolve))),
    ]);
    clearTimeout(timer);
    for (const held of this.held.values()) held.controller.abort();
    await all();
    if (this.beatTimer) clearInterval(this.beatTimer);
    for (const timer of this.progressAt.values()) if (timer) clearTimeout(timer);
    await Promise.all([...this.runs.values()].map(async (open) => (await open.ready.catch(() => null))?.close()));
    this.runs.clear();
    await this.options.store.workers.remove(this.owner).catch(() => {});
  }

  /** Ends the grace period of a `stop` under way: what is in hand is stopped and handed back now. */
  hurry(): void {
    this.hurried?.();
  }

  private async dispatch(): Promise<void> {
    const { queue, kinds, concurrency } = this.options;
    while (!this.stopping) {
      let got = 0;
      for (const kind of kinds) {
        const free = concurrency - this.held.size;
        if (free <= 0 || this.stopping) break;
        let jobs: FetchedJob[] = [];
        try {
          jobs = await queue.fetch(kind, free);
        } catch (error) {
          this.log(`taking jobs failed: ${(error as Error).message}`);
        }
        if (!jobs.length) continue;
        got += jobs.length;
        const started = jobs.map((job) => this.take(job));
        // Said before the work starts: a worker killed from here on has its jobs handed back.
        await this.beat().catch((error) => this.log(`heartbeat failed: ${(error as Error).message}`));
        for (const go of started) go();
      }
      if (this.stopping) break;
      const full = this.held.size >= concurrency;
      if (full || got === 0) {
        await new Promise<void>((resolve) => {
          const timer = full ? undefined : setTimeout(resolve, this.pollMs);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = null;
      }
    }
  }

  /** Holds a job now; the returned function starts its work. */
  private take(job: FetchedJob): () => void {
    const controller = new AbortController();
    let begin!: () => void;
    const begun = new Promise<void>((resolve) => (begin = resolve));
    const done = begun
      .then(() => this.work(job, controller.signal))
      .then(
        async (lost) => {
          // The episode is another worker's now, and so is this job (handed back, fetched again):
          // neither completed nor handed back from here.
          if (lost) return void this.dropped++;
          await this.options.queue.complete(job.kind, [job.id]);
          this.finished++;
        },
        (error) => {
          if (!controller.signal.aborted)
            this.log(`job ${job.kind} ${JSON.stringify(job.data)} failed, handed back: ${(error as Error).message}`);
          return this.options.queue.handBack(job.kind, [job.id]);
        },
      )
      .catch((error) => this.log(`job ${job.id}: ${(error as Error).message}`))
      .finally(() => {
        this.held.delete(job.id);
        this.wake?.();
        // The Workers panel's counts drop when a job ends, not at the next beat.
        if (!this.stopping) void this.beat().catch(() => {});
      });
    this.held.set(job.id, { job, controller, done });
    return begin;
  }

  /** Does a job; true when its episode's claim was lost on the way. */
  private async work(job: FetchedJob, signal: AbortSignal): Promise<boolean> {
    switch (job.kind) {
      case "play":
      case "score": {
        const { runId, episodeId } = job.data as JobData["play"];
        // Both are `executeRun` on one episode: a score job finds the dialogue stored and only scores.
        return this.play(runId, episodeId, signal, job.kind === "play" && !this.scores);
      }
      case "sample":
      case "rank":
        try {
          await this.sweetState(job.kind, job.data as JobData["sample"], {
            queue: queueName(job.kind),
            id: job.id,
            attempt: job.attempt,
          });
          return false;
        } catch (error) {
          if (!(error instanceof JobLost)) throw error;
          this.log(`${error.message}: its results were not written (another worker does it)`);
          return true;
        }
    }
  }

  /** A SWEET-RL step for one state, with the servers its `QueuedStep` names (one client per step). */
  private async sweetState(kind: "sample" | "rank", job: JobData["sample"], fence: JobFence): Promise<void> {
    const { store } = this.options;
    // Gone with its run (deleted since): nothing to do.
    const step = await store.workers.step(job.stepId);
    if (!step) return;
    const settings = step.settings;
    if (kind === "sample") {
      const policy = this.clientFor(String(settings.policy));
      const [state] = await store.sweet.states(job.runId, 1, job.turnId);
      if (!state || state.candidates >= Number(settings.n) + 1) return;
      await sampleState(store, policy, state, {
        n: Number(settings.n),
        template: await templateForRun(store, job.runId),
        fence,
      });
    } else {
      await rankState(store, job.runId, job.turnId, this.clientFor(String(settings.critic)), {
        groundTruth: settings.groundTruth !== false,
        sum: settings.sum === true,
        template: await templateForRun(store, job.runId),
        fence,
      });
    }
  }

  private readonly clients = new Map<string, OpenAICompatibleClient>();

  private clientFor(spec: string): OpenAICompatibleClient {
    let client = this.clients.get(spec);
    if (!client) {
      client = new OpenAICompatibleClient(parseServerSpec(spec), { concurrency: this.options.concurrency });
      this.clients.set(spec, client);
    }
    return client;
  }

  private get scores(): boolean {
    return this.options.kinds.includes("score");
  }

  private async play(runId: number, episodeId: number, signal: AbortSignal, deferScore: boolean): Promise<boolean> {
    const { store, bus, queue } = this.options;
    // A run deleted since its jobs were queued leaves nothing to do (not an error to retry).
    if (!(await store.runs.find(runId))) return false;
    const services = await this.servicesFor(runId);
    try {
      const stats = await executeRun(store, runId, services, {
        episodeIds: [episodeId],
        owner: this.owner,
        leaseMs: this.leaseMs,
        concurrency: 1,
        signal,
        publish: (event) => bus.publish(event),
        ...(deferScore ? { deferScore: (id: number) => queue.enqueue("score", [{ runId, episodeId: id }]) } : {}),
        log: (line) => this.log(line),
      });
      return stats.lost > 0;
    } finally {
      this.release(runId);
      this.progress(runId);
    }
  }

  private async servicesFor(runId: number): Promise<RunServices> {
    let open = this.runs.get(runId);
    if (!open) {
      const make = this.options.services ?? (this.scores ? openRunServices : openPlayingServices);
      open = { ready: loadRunConfig(this.options.store, runId).then(make), users: 0 };
      this.runs.set(runId, open);
      open.ready.catch(() => this.runs.delete(runId));
    }
    open.users++;
    if (open.idleTimer) clearTimeout(open.idleTimer);
    try {
      return (await open.ready).services;
    } catch (error) {
      open.users--;
      throw error;
    }
  }

  private release(runId: number): void {
    const open = this.runs.get(runId);
    if (!open || --open.users > 0) return;
    open.idleTimer = setTimeout(() => {
      if (open.users > 0) return;
      this.runs.delete(runId);
      void open.ready.then((s) => s.close()).catch(() => {});
    }, SERVICES_IDLE_MS);
    open.idleTimer.unref();
  }

  /** The run's counts as every process should see them, at most every 250 ms per run. */
  private progress(runId: number): void {
    if (this.progressAt.has(runId)) return;
    const send = async () => {
      this.progressAt.delete(runId);
      const { store } = this.options;
      const [c, turns, run] = await Promise.all([
        store.runs.counts(runId),
        store.workers.runTurnCount(runId),
        store.runs.find(runId),
      ]).catch(() => [null, 0, null] as const);
      if (!c || !run) return;
      const open = c.pending + c.running;
      // A stopped run (its waiting jobs cancelled) stays stopped while its last episodes finish.
      const state = !open ? "finished" : run.status === "paused" ? "stopped" : "running";
      this.options.bus.publish({
        type: "progress",
        runId,
        state,
        done: c.done,
        failed: c.failed,
        running: c.running,
        total: c.total,
        turns,
        tokens: 0,
      });
    };
    this.progressAt.set(
      runId,
      setTimeout(() => void send(), PROGRESS_EVERY_MS),
    );
  }

  private heldJobs(): HeldJob[] {
    return [...this.held.values()].map(({ job }) => ({
      queue: queueName(job.kind),
      id: job.id,
      runId: (job.data as { runId: number }).runId,
    }));
  }

  private async beat(): Promise<void> {
    await this.options.store.workers.beat({
      id: this.owner,
      host: os.hostname(),
      pid: process.pid,
      kinds: this.options.kinds,
      concurrency: this.options.concurrency,
      jobs: this.heldJobs(),
      finished: this.finished,
      beatMs: Math.max(this.leaseMs / 3, 100),
    });
  }

  private beating = false;

  private async beatAndReap(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      await this.beat();
      const { store, queue } = this.options;
      const dead = await store.workers.reap(this.leaseMs);
      for (const worker of dead)
        this.log(`worker ${worker.id} fell silent; its ${worker.jobs.length} job(s) go back to the queue`);
      const orphans = await store.workers.orphanedJobs(this.leaseMs);
      const byQueue = new Map<string, string[]>();
      for (const o of orphans) byQueue.set(o.queue, [...(byQueue.get(o.queue) ?? []), o.id]);
      for (const [name, ids] of byQueue) await queue.handBack(name.replace(/^colbench-/, "") as JobKind, ids);
    } catch (error) {
      this.log(`heartbeat failed: ${(error as Error).message}`);
    } finally {
      this.beating = false;
    }
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }
}
