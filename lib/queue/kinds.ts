// What a worker can be asked to do. A job carries ids only: everything it works on is read from the
// tables through lib/store when it starts, so a job retried on another machine sees the latest state.

export const JOB_KINDS = ["play", "score", "sample", "rank"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Play one episode of a run from its last stored turn, and score its answer. */
export interface PlayJob {
  runId: number;
  episodeId: number;
}

/**
 * Score an episode whose dialogue is stored (played by a worker that does not score: no Python sandbox
 * or browser on its machine). Whoever takes it claims the episode, finds every turn and scores it.
 */
export interface ScoreJob {
  runId: number;
  episodeId: number;
}

/**
 * SWEET-RL for one state (an agent turn of a finished episode): sample its candidates from the policy,
 * or rank them with the critic. The servers and options are the `QueuedStep` row's.
 */
export interface StateJob {
  runId: number;
  stepId: number;
  turnId: number;
}

export interface JobData {
  play: PlayJob;
  score: ScoreJob;
  sample: StateJob;
  rank: StateJob;
}

/** pg-boss queue names (letters, digits, hyphens). */
export const queueName = (kind: JobKind) => `colbench-${kind}`;

export function parseKinds(text: string | undefined): JobKind[] {
  if (!text) return [...JOB_KINDS];
  const kinds = text
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  for (const kind of kinds) {
    if (!(JOB_KINDS as readonly string[]).includes(kind))
      throw new Error(`--kinds: unknown job kind "${kind}" (known: ${JOB_KINDS.join(", ")})`);
  }
  return kinds as JobKind[];
}
