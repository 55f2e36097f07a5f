// What happens in a run, as every live view hears of it. Events carry ids and small numbers only:
// a view reads rows through lib/store when told they exist (a PostgreSQL NOTIFY payload must stay
// under 8000 bytes, and turns can be far longer than that).

export type EpisodeState = "running" | "done" | "failed";
export type RunState = "running" | "stopping" | "finished" | "stopped" | "crashed";

export interface RunCountsSnapshot {
  done: number;
  failed: number;
  running: number;
  total: number;
  turns: number;
  tokens: number;
}

export type RunEvent =
  | { type: "turn"; runId: number; episodeId: number; index: number; role: "agent" | "simulator" }
  | {
      type: "episode";
      runId: number;
      episodeId: number;
      taskId: number;
      sample: number;
      status: EpisodeState;
      reward?: number;
      error?: string;
    }
  | ({ type: "progress"; runId: number; state: RunState; error?: string } & RunCountsSnapshot)
  /** A person's move is awaited; the process playing the run knows what they are shown. */
  | { type: "awaiting"; runId: number; episodeId: number; role: "agent" | "simulator" }
  /**
   * A model server the run needs stopped answering (`wait`: which, why, since when) or answers again
   * (null): these of its episodes, held by the process that plays them, wait for it meanwhile.
   */
  | {
      type: "waiting";
      runId: number;
      episodeIds: number[];
      wait: { server: string; cause: string; since: string } | null;
    }
  /** A SWEET-RL step working on a run's data. */
  | {
      type: "pipeline";
      runId: number;
      step: PipelineStep;
      state: "running" | "finished" | "stopped" | "crashed";
      done: number;
      total: number;
      summary?: Record<string, number>;
      error?: string;
      /** While running: the step's model server is not answering, and the step retries until giveUpAt. */
      waiting?: StepWait | null;
    };

/** A SWEET-RL step's model server down while the step retries (times as ISO strings). */
export interface StepWait {
  server: string;
  cause: string;
  since: string;
  giveUpAt: string;
}

export type PipelineStep = "pairs" | "candidates" | "rank" | "turn-pairs";

export type RunProgress = Extract<RunEvent, { type: "progress" }>;

export interface EventBus {
  /** Sends an event to every subscriber of every process on this bus (this one's included). */
  publish(event: RunEvent): void;
  /** Returns how to unsubscribe. */
  subscribe(listener: (event: RunEvent) => void): () => void;
  close(): Promise<void>;
}

/** Error texts are the one free-length field: cut them so an event always fits a notification. */
export function fitted(event: RunEvent): RunEvent {
  if ("error" in event && typeof event.error === "string" && event.error.length > 1000) {
    return { ...event, error: `${event.error.slice(0, 1000)}…` };
  }
  return event;
}
