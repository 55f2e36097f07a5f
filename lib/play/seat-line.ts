import type { Benchmark } from "../benchmarks";
import { rewardSentence } from "../benchmarks/reward-sentence";
import { describeWait, type ServerWait } from "../colbench/failure";

// The one line a seat's page shows above the dialogue: whose move it is, what the other side is
// waiting on, or how the episode ended.

export interface SeatLineInput {
  connected: boolean;
  status: string;
  reward: number | null;
  playing: boolean;
  /** Whose move is awaited, if anyone's. */
  awaitingRole: "agent" | "simulator" | null;
  /** The agent's turns so far, when the agent's move is awaited. */
  agentTurn?: number;
  waiting: ServerWait | null;
  failureText: string | null;
  /** What made the reward, when the benchmark names it (a similarity's embedder). */
  scoredBy?: string | null;
}

export interface SeatLine {
  text: string;
  /** For tests and styling: the episode ended, it is this seat's move, or it waits on something else. */
  state: "ended" | "your-move" | "waiting";
  tone: "done" | "failed" | "notice" | "move" | "plain";
}

export function seatLine(
  live: SeatLineInput,
  mine: "agent" | "simulator",
  other: string,
  benchmark: Benchmark,
  now = Date.now(),
): SeatLine {
  const ended = live.status === "done" || live.status === "failed";
  const state = ended ? "ended" : live.awaitingRole === mine ? "your-move" : "waiting";
  if (ended) {
    const score = live.reward === null ? "no score" : rewardSentence(benchmark, live.reward, live.scoredBy);
    return live.status === "done"
      ? { text: `The episode is over: ${score}.`, state, tone: "done" }
      : { text: `The episode failed: ${live.failureText ?? "no reason was given"}.`, state, tone: "failed" };
  }
  if (!live.connected) return { text: "Connecting…", state, tone: "plain" };
  if (!live.playing)
    return {
      text: "This episode is not playing now (the studio restarted or the run was stopped): resume its run to go on.",
      state,
      tone: "notice",
    };
  if (live.awaitingRole === mine) {
    return {
      text:
        mine === "agent"
          ? `Your move (agent turn ${(live.agentTurn ?? 0) + 1} of 10).`
          : "Your move: reply to the agent.",
      state,
      tone: "move",
    };
  }
  if (live.waiting) {
    return {
      text: `The ${other} is ${describeWait(live.waiting, now)}. The episode goes on by itself when the server answers.`,
      state,
      tone: "notice",
    };
  }
  return { text: `Waiting for the ${other}…`, state, tone: "plain" };
}
