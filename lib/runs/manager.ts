import type { EventBus, RunProgress } from "../events";
import type { Store } from "../store";
import { createRun, type NewRun } from "./create";
import { playRun, type PlayRunOptions } from "./play-run";

interface Active {
  controller: AbortController;
  finished: Promise<void>;
}

/**
 * Runs started from the studio: played inside the server process, answers scored in the sandbox
 * and render workers. It also remembers the latest progress the bus brought of every run, wherever
 * it plays (a terminal, another machine), for views that open in the middle of one.
 */
export class RunManager {
  private readonly active = new Map<number, Active>();
  private readonly last = new Map<number, RunProgress>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly seats?: PlayRunOptions["seats"],
    /**
     * With a run queue (a PostgreSQL server): puts a run's episodes on it for `colbench worker`s,
     * resolving false for a run that must be played here (people in its seats).
     */
    private readonly enqueue?: (runId: number) => Promise<boolean>,
    /** With a run queue: takes a run's waiting jobs off it (Stop). */
    private readonly dequeue?: (runId: number) => Promise<void>,
  ) {
    this.unsubscribe = bus.subscribe((event) => {
      if (event.type === "progress") this.last.set(event.runId, event);
    });
  }

  async create(spec: NewRun, options: { start?: boolean } = {}): Promise<number> {
    const run = await createRun(this.store, spec);
    if (options.start !== false) this.start(run.id);
    return run.id;
  }

  /**
   * Starts (or resumes) a run: on the run queue when there is one, else in this process; a run
   * already playing here is left alone.
   */
  start(runId: number): void {
    if (this.active.has(runId)) return;
    if (this.enqueue) {
      void this.enqueue(runId)
        .then((queued) => (queued ? undefined : this.play(runId)))
        .catch(async (error) => {
          await this.store.runs.setStatus(runId, "failed").catch(() => {});
          this.bus.publish({
            type: "progress",
            runId,
            state: "crashed",
            error: `could not enqueue: ${(error as Error).message}`,
            done: 0,
            failed: 0,
            running: 0,
            total: 0,
            turns: 0,
            tokens: 0,
          });
        });
      return;
    }
    this.play(runId);
  }

  private play(runId: number): void {
    if (this.active.has(runId)) return;
    const controller = new AbortController();
    const finished = playRun(this.store, runId, { bus: this.bus, signal: controller.signal, seats: this.seats })
      .then(() => undefined)
      // playRun has recorded the run's state and told the bus; nobody awaits a studio run's result.
      .catch(() => undefined)
      .finally(() => this.active.delete(runId));
    this.active.set(runId, { controller, finished });
  }

  /** Stops a run between turns; interrupted episodes continue from their last turn on resume. */
  async stop(runId: number): Promise<void> {
    const run = this.active.get(runId);
    if (!run) {
      // Played by workers: what waits is taken off the queue, what is being played finishes.
      if (this.dequeue) {
        await this.dequeue(runId);
        const last = this.last.get(runId);
        if (last) this.bus.publish({ ...last, state: "stopped" });
      }
      return;
    }
    const last = this.last.get(runId);
    if (last) this.bus.publish({ ...last, state: "stopping" });
    run.controller.abort();
    await run.finished;
  }

  /** The latest progress heard of a run, from this process or any other on the bus. */
  progress(runId: number): RunProgress | null {
    return this.last.get(runId) ?? null;
  }

  /** Whether Stop reaches the run's player: it plays here, or on the run queue this studio empties. */
  canStop(runId: number): boolean {
    return this.active.has(runId) || this.dequeue !== undefined;
  }

  /** Whether this process plays the run now. */
  isActive(runId: number): boolean {
    return this.active.has(runId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
    this.unsubscribe();
  }
}
