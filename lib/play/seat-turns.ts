import type { TurnRecord } from "../colbench/episode";
import type { AwaitedMove } from "./seats";
import { describeFailure, type EpisodeFailure, type ServerFailure } from "../colbench/failure";

// What each seat of a played episode is sent. The agent's seat must never receive hidden
// information (ground truth, tests, the target page or its render), so its view is built from
// an allow-list of fields rather than by removing the dangerous ones.

export type Seat = "agent" | "simulator" | "viewer";

export const SEATS: readonly Seat[] = ["agent", "simulator", "viewer"];

/** A turn as shown in a live transcript. */
export interface SeatTurn {
  index: number;
  role: "agent" | "simulator";
  content: string;
  /** Agent turns: the page it proposed (frontend) and that page's render. */
  html?: string | null;
  renderId?: string | null;
  rawOutput?: string | null;
  prompt?: unknown;
  usage?: TurnRecord["usage"];
  /** How long the turn took to come (ms), when measured. */
  waitMs?: number | null;
  advantage?: number | null;
}

export function turnFor(seat: Seat, turn: TurnRecord): SeatTurn {
  const base: SeatTurn = { index: turn.index, role: turn.role, content: turn.content };
  if (turn.role === "agent") {
    base.html = turn.html ?? null;
    base.renderId = turn.renderId ?? null;
  }
  if (seat === "agent") return base;
  // The simulator's prompt holds the hidden information: fine for the simulator seat and reviewers.
  return {
    ...base,
    rawOutput: turn.rawOutput ?? null,
    prompt: turn.prompt,
    usage: turn.usage ?? null,
    waitMs: turn.waitMs ?? null,
    advantage: turn.advantage ?? null,
  };
}

/** Whose move it is, as a seat may know it. */
export interface SeatAwaiting {
  role: "agent" | "simulator";
  /** Agent moves: which agent turn this is (0-based); the 10th ends the episode. */
  agentTurn?: number;
  /** Simulator moves, frontend: the render of the agent's latest page and of the target. */
  agentRenderId?: string | null;
  targetRenderId?: string | null;
}

export function awaitingFor(seat: Seat, move: AwaitedMove): SeatAwaiting {
  if (move.role === "agent") return { role: "agent", agentTurn: move.input.turn };
  if (seat === "agent") return { role: "simulator" };
  return {
    role: "simulator",
    agentRenderId: move.input.agentRender?.id ?? null,
    targetRenderId: move.input.targetRender?.id ?? null,
  };
}

export function parseSeat(value: string | null | undefined): Seat {
  return SEATS.find((s) => s === value) ?? "viewer";
}

/** Why an episode failed, as a seat may know it. */
export interface SeatFailure {
  text: string;
  side?: "agent" | "simulator";
  server?: ServerFailure;
}

/**
 * The agent's seat learns a model server's part (which server, the status or connection error, how
 * long) but never an error's own text, which may quote a prompt holding hidden information.
 */
export function failureFor(seat: Seat, failure: EpisodeFailure | null): SeatFailure | null {
  if (!failure) return null;
  const text = describeFailure(failure);
  if (seat !== "agent") return { text, side: failure.side, server: failure.server };
  if (failure.server) return { text, side: failure.side, server: failure.server };
  return { text: "The episode failed; the reason is shown to researchers in its replay." };
}
