import type { HelloMessage, ScoreReply, ScoreRequest } from "./protocol";
import { lostReason, RequestReleasedError, SandboxWorker, WorkerLostError } from "./worker";

// Sandbox workers in lanes, each fed from its own queue. The main lane starts with the pool; other
// lanes (workers with heavy modules such as numpy already imported) start a worker only when a
// request needs one, up to the same size. A request goes to the least loaded worker of its lane;
// each worker holds at most PIPELINE requests (the one it works on and those it will take next, so
// it never waits on a round trip to us; it answers a busy queue in batches, see protocol.py), fewer
// as the queue runs out (pipelineDepth). A worker whose current answer runs long hands back the
// requests waiting behind it (and gets no more until that answer is done), so that an idle worker
// takes them. A dead worker is replaced; the request it was working on is tried once more, and a
// second loss is reported, never left hanging. Requests only waiting behind it go back to the
// queue as they were.

/** Starts a worker for slot `slot` of its lane (0, 1, ...; a replacement gets its slot's number). */
export type SpawnWorker = (slot: number) => Promise<SandboxWorker>;

export const MAIN_LANE = "main";

interface Job {
  body: Omit<ScoreRequest, "id">;
  timeoutMs: number;
  /** Times a worker was lost while working on this request. */
  losses: number;
  resolve(reply: ScoreReply): void;
  reject(error: Error): void;
}

interface Slot {
  worker: SandboxWorker | null;
  starting: boolean;
  /** Start-ups that failed in a row; the slot gives up after MAX_START_FAILURES. */
  failures: number;
  lastError: string;
}

interface Lane {
  spawn: SpawnWorker;
  slots: Slot[];
  queue: Job[];
}

const PIPELINE = 16;
/** Never less than this: one to work on and the next already there (no round trip to wait on). */
const MIN_PIPELINE = 2;
const MAX_LOSSES = 2;
const MAX_START_FAILURES = 3;

export class WorkerPool {
  private readonly lanes = new Map<string, Lane>();
  private closed = false;
  /** Workers started to replace dead ones. */
  restarts = 0;
  /** Requests handed back by a worker busy with a slow answer, to go to another. */
  released = 0;
  /** Slow answers whose remaining tests were shared out to another worker. */
  splits = 0;
  /** The first worker's start-up report (all workers run the same code on the same machine). */
  readonly hello: HelloMessage;

  private constructor(
    private readonly size: number,
    main: Lane,
    extra: Record<string, SpawnWorker>,
  ) {
    this.hello = main.slots[0]!.worker!.hello;
    this.lanes.set(MAIN_LANE, main);
    for (const slot of main.slots) this.watch(main, slot, slot.worker!);
    for (const [name, spawn] of Object.entries(extra)) this.lanes.set(name, { spawn, slots: [], queue: [] });
  }

  /** Starts `size` main workers (all must start); `lanes` names spawners of lazily started ones. */
  static async start(
    size: number,
    spawnWorker: SpawnWorker,
    lanes: Record<string, SpawnWorker> = {},
  ): Promise<WorkerPool> {
    const started = await Promise.allSettled(Array.from({ length: size }, (_, slot) => spawnWorker(slot)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) {
      await Promise.all(started.flatMap((s) => (s.status === "fulfilled" ? [s.value.close()] : [])));
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    const slots = started.map((s) => ({
      worker: (s as PromiseFulfilledResult<SandboxWorker>).value,
      starting: false,
      failures: 0,
      lastError: "",
    }));
    return new WorkerPool(size, { spawn: spawnWorker, slots, queue: [] }, lanes);
  }

  /** Live workers' process ids, all lanes (tests use them to kill some). */
  pids(lane?: string): number[] {
    const lanes = lane ? [this.lanes.get(lane)].filter((l): l is Lane => !!l) : [...this.lanes.values()];
    return lanes.flatMap((l) =>
      l.slots.flatMap((slot) => (slot.worker?.alive && slot.worker.pid !== undefined ? [slot.worker.pid] : [])),
    );
  }

  /** Requests each live worker of `lane` holds, and how many wait here for one (diagnostics, tests). */
  load(lane = MAIN_LANE): { workers: number[]; queued: number } {
    const l = this.lanes.get(lane);
    return {
      workers: l?.slots.flatMap((slot) => (slot.worker?.alive ? [slot.worker.load] : [])) ?? [],
      queued: l?.queue.length ?? 0,
    };
  }

  /** Live workers' zygotes (the processes that fork sandbox children), all lanes. */
  zygotePids(): number[] {
    return [...this.lanes.values()].flatMap((l) =>
      l.slots.flatMap((slot) =>
        slot.worker?.alive && slot.worker.hello.zygote !== undefined ? [slot.worker.hello.zygote] : [],
      ),
    );
  }

  /**
   * Starts a worker for `lane` now, without waiting for it, unless the lane has one (or is
   * starting one): for a caller that knows requests for that lane are coming, so that the first
   * of them does not wait for a start-up (and the cores do not idle meanwhile).
   */
  warm(lane: string): void {
    const target = this.lanes.get(lane);
    if (!target || this.closed || target.slots.length) return;
    this.addSlot(target);
  }

  /** Resolves with the worker's reply; rejects with WorkerLostError after two lost workers. */
  run(body: Omit<ScoreRequest, "id">, timeoutMs: number, lane = MAIN_LANE): Promise<ScoreReply> {
    if (this.closed) return Promise.reject(new Error("the backend scorer is closed"));
    const target = this.lanes.get(lane) ?? this.lanes.get(MAIN_LANE)!;
    return new Promise<ScoreReply>((resolve, reject) => {
      target.queue.push({ body, timeoutMs, losses: 0, resolve, reject });
      this.pump(target);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      for (const job of lane.queue.splice(0)) job.reject(new Error("the backend scorer was closed"));
    }
    await Promise.all(
      [...this.lanes.values()].flatMap((lane) =>
        lane.slots.flatMap((slot) => (slot.worker ? [slot.worker.close()] : [])),
      ),
    );
  }

  private pump(lane: Lane): void {
    while (lane.queue.length) {
      const limit = pipelineDepth(lane);
      let best: SandboxWorker | null = null;
      for (const slot of lane.slots) {
        const worker = slot.worker;
        if (worker?.alive && !worker.stalled && worker.load < limit && (!best || worker.load < best.load))
          best = worker;
      }
      if (!best) break;
      this.dispatch(lane, best, lane.queue.shift()!);
    }
    if (!lane.queue.length || this.closed) return;
    const main = this.lanes.get(MAIN_LANE)!;
    const backlog = lane.queue.length > PIPELINE * lane.slots.length;
    if (lane !== main && backlog && lane.slots.length < this.size && !lane.slots.some((slot) => slot.starting)) {
      // More waiting than this lane's workers will take soon: one more (they start one at a time).
      this.addSlot(lane);
      return;
    }
    if (lane.slots.length && lane.slots.every((slot) => !slot.worker && slot.failures >= MAX_START_FAILURES)) {
      if (lane !== main) {
        // That kind of worker cannot start here (say, the module is missing): the main lane
        // scores these too, only more slowly.
        main.queue.push(...lane.queue.splice(0));
        this.pump(main);
        return;
      }
      const reason = lane.slots.map((slot) => slot.lastError).find(Boolean) ?? "unknown error";
      for (const job of lane.queue.splice(0)) job.reject(new Error(`no sandbox worker can start: ${reason}`));
    }
  }

  private addSlot(lane: Lane): void {
    const slot: Slot = { worker: null, starting: false, failures: 0, lastError: "" };
    lane.slots.push(slot);
    void this.replace(lane, slot, false);
  }

  private dispatch(lane: Lane, worker: SandboxWorker, job: Job): void {
    // The tests the worker left for another (see onSplit below), and what became of them.
    let share: { tests: number[]; reply: Promise<ScoreReply | Error> } | null = null;
    // Another worker could take over work only in a lane of more than one. A part of a split
    // request is not split again.
    const others = lane.slots.filter((slot) => slot.worker?.alive).length > 1;
    const stall = others ? (job.body.part ? "release" : "split") : undefined;
    worker.request(
      stall ? { ...job.body, stall } : job.body,
      job.timeoutMs,
      (reply) => {
        if (share) {
          const { tests } = share;
          void share.reply.then((part) => job.resolve(mergeShare(reply, tests, part)));
        } else {
          job.resolve(reply);
        }
        this.pump(lane);
      },
      (error, started) => {
        if (error instanceof RequestReleasedError) {
          this.released += 1;
          lane.queue.unshift(job);
          this.pump(lane);
          return;
        }
        if (error instanceof WorkerLostError && started) job.losses += 1;
        if (error instanceof WorkerLostError && job.losses < MAX_LOSSES && !this.closed) {
          // Tried again whole: what a split sent elsewhere is then not waited for.
          lane.queue.unshift(job);
        } else {
          job.reject(error);
        }
        // A lost worker is replaced by watch(); queued work goes to the others meanwhile.
        this.pump(lane);
      },
      (tests) => {
        // A slow answer: its worker runs the first tests and left these for whoever is free
        // first. They go ahead of the queue, as a request of their own.
        this.splits += 1;
        const reply = new Promise<ScoreReply | Error>((resolve) => {
          lane.queue.unshift({
            body: { ...job.body, tests: tests.map((i) => job.body.tests[i]!), part: true },
            timeoutMs: job.timeoutMs,
            losses: 0,
            resolve,
            reject: resolve,
          });
        });
        share = { tests, reply };
        this.pump(lane);
      },
    );
  }

  private watch(lane: Lane, slot: Slot, worker: SandboxWorker): void {
    worker.whenExited((reason) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      slot.lastError = reason;
      if (!this.closed) void this.replace(lane, slot, true);
    });
  }

  private async replace(lane: Lane, slot: Slot, isRestart: boolean): Promise<void> {
    slot.starting = true;
    while (!this.closed && slot.failures < MAX_START_FAILURES) {
      try {
        const worker = await lane.spawn(lane.slots.indexOf(slot));
        if (this.closed) {
          await worker.close();
          break;
        }
        if (isRestart) this.restarts += 1;
        slot.failures = 0;
        slot.worker = worker;
        this.watch(lane, slot, worker);
        break;
      } catch (error) {
        slot.failures += 1;
        slot.lastError = (error as Error).message;
      }
    }
    slot.starting = false;
    this.pump(lane);
  }
}

/**
 * How many requests a worker of `lane` may hold now. A long queue keeps them PIPELINE deep (the
 * worker answers in batches); as the queue runs out, what is left stays here, where whichever
 * worker is free first takes it, instead of deep in one worker's pipe while another idles (the
 * end of every batch of answers otherwise left a core idle for up to PIPELINE answers).
 */
function pipelineDepth(lane: Lane): number {
  const live = lane.slots.reduce((n, slot) => n + (slot.worker?.alive ? 1 : 0), 0);
  if (live <= 1) return PIPELINE;
  return Math.min(PIPELINE, Math.max(MIN_PIPELINE, Math.ceil(lane.queue.length / live) + 1));
}

/** A split request's result: the tests it gave away filled in from `part` (or failed with its error). */
function mergeShare(reply: ScoreReply, given: number[], part: ScoreReply | Error): ScoreReply {
  const tests = [...reply.tests];
  given.forEach((index, k) => {
    tests[index] =
      part instanceof Error
        ? { passed: false, reason: part instanceof WorkerLostError ? lostReason(part) : `error: ${part.message}` }
        : (part.tests[k] ?? { passed: false, reason: "error: no result from sandbox" });
  });
  const passed = tests.filter((t) => t.passed).length;
  const output = part instanceof Error ? reply.output : reply.output + part.output;
  const children = reply.children + (part instanceof Error ? 0 : part.children);
  return { ...reply, tests, reward: tests.length ? passed / tests.length : 0, output, children };
}
