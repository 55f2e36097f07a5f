import { processSlot } from "../process-slot";
import type { Store } from "../store";
import type { TurnScores } from "../store/episode-scores";

// Where the studio's routes find the process's own scorer of live advantages (the served critic and
// policy, lib/gpu/node/live-scorer.ts). `colbench serve` sets it, so Dawn and the model runners load
// in the server's own modules, never in a route's bundle; a process without it cannot score.

export interface StudioScores {
  record: number;
  device: string;
  turns: TurnScores[];
}

export interface StudioTurnScorer {
  /** Scores the named agent turns and keeps them as a scoring record; null when no models are served. */
  score(store: Store, episodeId: number, turns: number[]): Promise<StudioScores | null>;
}

const slot = processSlot<StudioTurnScorer>("colbench.studioTurnScorer");

export const setStudioTurnScorer = (scorer: StudioTurnScorer | undefined) => slot.set(scorer);
export const studioTurnScorer = (): StudioTurnScorer | null => slot.get() ?? null;
