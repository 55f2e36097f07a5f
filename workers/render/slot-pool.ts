import type { RenderSettings } from "../../lib/scoring/frontend/render-protocol";
import { FALLBACK_SIZE, fallbackPng } from "../../lib/scoring/frontend/png";
import type { Engine } from "./engine";
import { killTree, privateBytesOfTrees } from "./process-tree";
import type { SlotResult } from "./slot";

// What both engines' pools share. Pages render in lanes, each lane a browser of its own (its own
// processes: compositor, renderers, memory) showing one page at a time, so what one page costs is
// paid by its own lane alone: a page that outgrows its memory budget or its time is killed with its
// lane's browser, and the other lanes never notice. A page whose render is not clean (failed,
// timed out, or a capture that failed its checks) is rendered once more in a fresh browser, alone:
// no other lane renders meanwhile, so whatever the machine's other pages cost (memory, CPU) is not
// what it meets the second time. That result counts, and says what the first attempt met. Within a
// lane, a page is reused from one render to the next and replaced when spent (see each engine's
// slot; a slot can become spent between renders, when something navigates it); the browser
// outlives its pages until something goes wrong in it.

export interface RenderSlot {
  readonly spent: boolean;
  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult>;
  close(): Promise<void>;
}

/** One browser of its own, showing one page at a time. */
export interface Lane<S extends RenderSlot> {
  /** A fresh page in this lane's browser, launching the browser if it is not running. */
  open(): Promise<S>;
  /** The browser's process id while it runs. */
  pid(): number | undefined;
  /** Ends the browser and every process of it at once; the next open() launches a fresh one. */
  kill(): Promise<void>;
  /** Ends the browser politely. */
  close(): Promise<void>;
}

export interface LaneLimits {
  /** A lane's browser may hold this much private memory (all its processes) while it renders a page. */
  memoryLimitBytes: number;
  /** The capture's own time limit: a render still unfinished this long after its deadline, twice over, is ended with its browser. */
  captureTimeoutMs: number;
}

interface Job {
  html: string;
  settings: RenderSettings;
  deadlineMs: number;
  resolve(result: SlotResult): void;
}

const MEMORY_POLL_MS = 250;
/** What the deadline and two capture limits leave a render that still has not answered (a wedged browser). */
const HARD_LIMIT_SLACK_MS = 5_000;

export const failedResult = (error: string): SlotResult => ({
  status: "failed",
  png: fallbackPng(),
  ...FALLBACK_SIZE,
  aborted: 0,
  blocked: [],
  error,
});

/** Watches the private memory of every lane that is rendering, one pass over /proc per tick for all of them. */
class MemoryWatch {
  private readonly watched = new Map<number, { limit: number; over(bytes: number): void }>();
  private timer: NodeJS.Timeout | null = null;

  watch(pid: number, limit: number, over: (bytes: number) => void): () => void {
    this.watched.set(pid, { limit, over });
    this.timer ??= setInterval(() => this.tick(), MEMORY_POLL_MS);
    return () => {
      this.watched.delete(pid);
      if (this.watched.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private tick(): void {
    const sizes = privateBytesOfTrees([...this.watched.keys()]);
    for (const [pid, bytes] of sizes) {
      const w = this.watched.get(pid);
      if (w && bytes > w.limit) {
        this.watched.delete(pid);
        w.over(bytes);
      }
    }
  }
}

const memoryWatch = new MemoryWatch();

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * First attempts share it; a second attempt holds it alone, so it starts once every first attempt
 * under way has ended, and none starts until it has. Granted in order of asking, so a waiting
 * second attempt is not overtaken by first attempts that asked after it.
 */
class RetryGate {
  private sharing = 0;
  private exclusive = false;
  private readonly waiting: { alone: boolean; go(): void }[] = [];

  async shared<T>(f: () => Promise<T>): Promise<T> {
    await this.enter(false);
    try {
      return await f();
    } finally {
      this.sharing--;
      this.grant();
    }
  }

  async alone<T>(f: () => Promise<T>): Promise<T> {
    await this.enter(true);
    try {
      return await f();
    } finally {
      this.exclusive = false;
      this.grant();
    }
  }

  private enter(alone: boolean): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ alone, go });
      this.grant();
    });
  }

  private grant(): void {
    while (this.waiting.length > 0 && !this.exclusive) {
      const next = this.waiting[0]!;
      if (next.alone && this.sharing > 0) return;
      this.waiting.shift();
      if (next.alone) this.exclusive = true;
      else this.sharing++;
      next.go();
    }
  }
}

export abstract class SlotPool<S extends RenderSlot> implements Engine {
  private readonly queue: Job[] = [];
  private readonly runners: Promise<void>[] = [];
  private wake: (() => void)[] = [];
  private readonly gate = new RetryGate();
  protected closed = false;
  browserVersion = "";

  protected constructor(private readonly limits: LaneLimits) {}

  /** A lane: a browser of its own, launched on its first page. */
  protected abstract newLane(): Lane<S>;

  /** Starts one runner per lane; `first`, if given, is the lane whose browser is already up. */
  protected startRunners(concurrency: number, first?: Lane<S>): void {
    for (let i = 0; i < Math.max(1, concurrency); i++)
      this.runners.push(this.run(i === 0 && first ? first : this.newLane()));
  }

  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult> {
    if (this.closed) return Promise.reject(new Error("the render pool is closed"));
    return new Promise((resolve) => {
      this.queue.push({ html, settings, deadlineMs, resolve });
      this.wake.shift()?.();
    });
  }

  private async next(): Promise<Job | null> {
    while (!this.closed) {
      const job = this.queue.shift();
      if (job) return job;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
    return null;
  }

  /** One lane's loop: take a job, render it (twice, in a fresh browser, if the first was not clean). */
  private async run(lane: Lane<S>): Promise<void> {
    const state: { slot: S | null } = { slot: null };
    const restart = async () => {
      const slot = state.slot;
      state.slot = null;
      await slot?.close().catch(() => {});
      await lane.kill();
    };
    for (let job = await this.next(); job; job = await this.next()) {
      const j = job;
      let result = await this.gate.shared(() => this.attempt(lane, state, j));
      if (result.status !== "ok" && !this.closed) {
        // The browser may be what failed (a compositor this page wedged, memory it left behind), or
        // the machine's other pages: the second try gets a fresh browser and the machine to itself,
        // and only its result counts.
        const first = result;
        result = await this.gate.alone(async () => {
          await restart();
          return this.attempt(lane, state, j);
        });
        result = { ...result, retried: { status: first.status, ...(first.error ? { error: first.error } : {}) } };
      }
      job.resolve(result);
      if (result.status !== "ok") await restart();
      else if (state.slot?.spent) {
        await state.slot.close();
        state.slot = null;
      }
    }
    await state.slot?.close().catch(() => {});
    await lane.close();
  }

  /** One render in this lane, within its memory and time budget; past either, the lane's browser is killed. */
  private async attempt(lane: Lane<S>, state: { slot: S | null }, job: Job): Promise<SlotResult> {
    let stopWatch = () => {};
    let timer: NodeJS.Timeout | undefined;
    try {
      if (state.slot?.spent) {
        // Spent since its last page (a navigation that arrived while it was idle).
        await state.slot.close().catch(() => {});
        state.slot = null;
      }
      state.slot ??= await lane.open();
      const pid = lane.pid();
      const killed = new Promise<SlotResult>((resolve) => {
        const end = (why: string) => {
          void lane.kill();
          resolve(failedResult(why));
        };
        if (pid !== undefined) {
          stopWatch = memoryWatch.watch(pid, this.limits.memoryLimitBytes, (bytes) =>
            end(
              `the page used ${mib(bytes)} MiB, more than its ${mib(this.limits.memoryLimitBytes)} MiB (its browser was killed)`,
            ),
          );
        }
        const hardMs = job.deadlineMs + 2 * this.limits.captureTimeoutMs + HARD_LIMIT_SLACK_MS;
        timer = setTimeout(() => end(`the render did not end within ${hardMs} ms (its browser was killed)`), hardMs);
      });
      return await Promise.race([state.slot.render(job.html, job.settings, job.deadlineMs), killed]);
    } catch (error) {
      await lane.kill();
      state.slot = null;
      return failedResult(error instanceof Error ? error.message : String(error));
    } finally {
      stopWatch();
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.wake.splice(0)) wake();
    for (const job of this.queue.splice(0)) job.resolve(failedResult("the render pool closed"));
    await Promise.all(this.runners);
  }
}

/** Kills a browser's whole process tree, then lets its driver finish closing. */
export async function killBrowser(pid: number | undefined, close: () => Promise<void>): Promise<void> {
  if (pid !== undefined) killTree(pid);
  await close();
}
