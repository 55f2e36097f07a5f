// A run's state in one word, worked out from its episodes (and, in the studio, whether this process
// plays it), never from the status column alone: that column is written when a player starts and ends,
// so a player that died, or episodes finished by another process, leave it behind. The run page (live
// and reloaded), the runs list and `colbench runs` all say the words below, and only these.

export const RUN_STATES = ["new", "running", "stopping", "stopped", "crashed", "finished"] as const;
export type RunStateWord = (typeof RUN_STATES)[number];

/** What each word means, as a tooltip or the CLI's `--help` says it. */
export const RUN_STATE_MEANING: Record<RunStateWord, string> = {
  new: "no episode has started yet",
  running: "episodes are being played",
  stopping: "stopping: the turns in flight end first",
  stopped: "episodes are left and none is being played",
  crashed: "the player stopped with an error; episodes are left",
  finished: "every episode has ended",
};

export interface RunStateInput {
  /** Episodes: all, ended (done, failed), played now (held), and left to play (not started, or interrupted and held by nobody). */
  total: number;
  done: number;
  failed: number;
  playing: number;
  toPlay: number;
  /** The status column (`pending` | `running` | `paused` | `done` | `failed`). */
  stored: string;
  /** The studio plays the run in this process now; and what its player last said (stopping, crashed). */
  here?: { active: boolean; last?: "running" | "stopping" | "finished" | "stopped" | "crashed" | "idle" };
}

/** The run's state word. Episodes decide; the player's own word counts only where they cannot. */
export function runStateOf(i: RunStateInput): RunStateWord {
  const open = i.toPlay + i.playing;
  if (i.total > 0 && open === 0) return "finished";
  if (i.here?.active && i.here.last === "stopping") return "stopping";
  if (i.playing > 0 || i.here?.active) return "running";
  // Nothing plays it and episodes are left.
  if (i.here?.last === "crashed" || i.stored === "failed") return "crashed";
  if (i.done + i.failed === 0 && i.stored !== "paused") return "new";
  return "stopped";
}

/** The state of a run as a list knows it (episodes and the status column, no player's word). */
export function stateOfSummary(run: {
  total: number;
  done: number;
  failed: number;
  playing: number;
  toPlay: number;
  status: string;
}): RunStateWord {
  return runStateOf({ ...run, stored: run.status });
}

export interface RunActions {
  /** Stop is offered while something this studio can stop plays the run. */
  stop: boolean;
  /** Resume is offered only where it plays something: episodes left or failed, and nothing playing them. */
  resume: { label: string; episodes: number } | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

export function runActionsOf(
  state: RunStateWord,
  counts: { toPlay: number; failed: number; playing: number },
  stoppable: boolean,
): RunActions {
  const playing = state === "running" || state === "stopping";
  const left = counts.toPlay + counts.failed;
  if (playing) return { stop: stoppable && state === "running", resume: null };
  if (left === 0 || counts.playing > 0) return { stop: false, resume: null };
  const label =
    state === "new"
      ? `Start (${plural(left, "episode")})`
      : counts.toPlay === 0
        ? `Retry ${plural(counts.failed, "failed episode")}`
        : `Resume (${plural(left, "episode")} left)`;
  return { stop: false, resume: { label, episodes: left } };
}
