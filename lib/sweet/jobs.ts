import type { EventBus, PipelineStep, RunEvent } from "../events";
import { parseServerSpec } from "../colbench/server-spec";
import { OpenAICompatibleClient } from "../models/openai-client";
import type { Store } from "../store";
import { templateForRun } from "./run-template";
import { makeTrajectoryPairs, makeTurnPairs, rankCandidates, sampleCandidates, type StateOrder } from "./pipeline";
import { explainStepError } from "./pipeline-view";
import { stepWait } from "./step-wait";
import { processSlot } from "../process-slot";

export interface StepRequest {
  step: PipelineStep;
  /** candidates: the policy's URL#MODEL; rank: the critic's. */
  server?: string;
  n?: number;
  groundTruth?: boolean;
  sum?: boolean;
  pairsPerState?: number;
  seed?: number;
  /** turn-pairs: the turn's own output is a candidate too (the published pool is the N samples). */
  includeOwn?: boolean;
  /** turn-pairs: the order states are drawn in (the published export's: task, or best-of-k). */
  order?: StateOrder;
  /** A hub id, model folder or fallback name; the run's recorded template when left out. */
  template?: string;
}

type PipelineEvent = Extract<RunEvent, { type: "pipeline" }>;

/**
 * SWEET-RL steps started from the studio: one at a time per run, in the server process, telling
 * the bus how far they are. Stopping ends the step's requests (what they would have stored is not
 * stored); starting the step again continues where it stopped (the steps skip what is done).
 */
export class PipelineJobs {
  private readonly active = new Map<
    number,
    { step: PipelineStep; controller: AbortController; finished: Promise<void> }
  >();
  private readonly last = new Map<number, PipelineEvent>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
  ) {
    this.unsubscribe = bus.subscribe((event) => {
      if (event.type === "pipeline") this.last.set(event.runId, event);
    });
  }

  /** Checks the request (a bad server address is refused before anything starts), then starts it. */
  start(runId: number, request: StepRequest): void {
    if (this.active.has(runId))
      throw new Error(`a ${this.active.get(runId)!.step} step is already working on this run`);
    const needsServer = request.step === "candidates" || request.step === "rank";
    const controller = new AbortController();
    // Stop ends requests in flight too: during an outage they would otherwise wait out the give-up.
    const client = needsServer
      ? new OpenAICompatibleClient(
          parseServerSpec(request.server ?? "", request.step === "candidates" ? "policy" : "critic"),
          { signal: controller.signal },
        )
      : null;
    const { step } = request;
    let total = 0;
    let done = 0;
    let sent = 0;
    let waiting: PipelineEvent["waiting"] = null;
    const tell = (state: PipelineEvent["state"], extra: Partial<PipelineEvent> = {}) =>
      this.bus.publish({
        type: "pipeline",
        runId,
        step,
        state,
        done,
        total,
        ...(state === "running" ? { waiting } : {}),
        ...extra,
      });
    // Said as soon as the server fails (not at the give-up): the step goes on retrying meanwhile.
    const unwatch = client?.watchOutages((outage) => {
      waiting = outage ? stepWait(outage, client.giveUpMs) : null;
      tell("running");
    });
    const onProgress = (d: number, t: number) => {
      done = d;
      total = t;
      // At most four a second: every candidate is a tick.
      if (Date.now() - sent >= 250 || d === t) {
        sent = Date.now();
        tell("running");
      }
    };
    const work = async (): Promise<Record<string, number>> => {
      switch (step) {
        case "pairs":
          return makeTrajectoryPairs(this.store, runId, { groundTruth: request.groundTruth, via: "studio" });
        case "candidates":
          return sampleCandidates(this.store, runId, client!, {
            n: request.n,
            template: await templateForRun(this.store, runId, request.template),
            onProgress,
            signal: controller.signal,
            via: "studio",
          });
        case "rank":
          return rankCandidates(this.store, runId, client!, {
            groundTruth: request.groundTruth,
            sum: request.sum,
            template: await templateForRun(this.store, runId, request.template),
            onProgress,
            signal: controller.signal,
            via: "studio",
          });
        case "turn-pairs":
          return makeTurnPairs(this.store, runId, {
            pairsPerState: request.pairsPerState,
            seed: request.seed,
            pool: request.includeOwn ? "samples+own" : "samples",
            order: request.order,
            via: "studio",
          });
      }
    };
    tell("running");
    const finished = work()
      .then((summary) => tell("finished", { summary }))
      .catch((error: Error) =>
        tell(
          controller.signal.aborted ? "stopped" : "crashed",
          controller.signal.aborted ? {} : { error: explainStepError(step, error.message) },
        ),
      )
      .finally(() => {
        unwatch?.();
        this.active.delete(runId);
      });
    this.active.set(runId, { step, controller, finished });
  }

  async stop(runId: number): Promise<void> {
    const job = this.active.get(runId);
    if (!job) return;
    job.controller.abort();
    await job.finished;
  }

  /** The latest news of a run's step, from this process or another. */
  status(runId: number): PipelineEvent | null {
    return this.last.get(runId) ?? null;
  }

  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
    this.unsubscribe();
  }
}

const slot = processSlot<PipelineJobs>("colbench.pipelineJobs");

export function setPipelineJobs(jobs: PipelineJobs): void {
  slot.set(jobs);
}

export function getPipelineJobs(): PipelineJobs {
  return slot.need("no pipeline jobs in this process: start the studio with `npx colbench serve`");
}
