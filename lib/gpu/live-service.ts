import { processSlot } from "../process-slot";
import type { Store } from "../store";
import type { TurnScores } from "../store/episode-scores";
import { liveServerModels } from "../sweet/live-servers";
import { servedModels } from "./node/served-weights";

// Where the studio's routes find the process's own scorer of live advantages (the served critic and
// policy, lib/gpu/node/live-scorer.ts). `colbench serve` sets it, so Dawn and the model runners load
// in the server's own modules, never in a route's bundle; a process without it cannot score. With no
// weights served, it scores through model servers (lib/sweet/live-servers.ts).

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

/**
 * What computes an episode's live advantages in this studio: the weights it serves (a tab that may
 * see the critic's prompt scores them on its own GPU), else model servers (the studio's process asks
 * them); null when neither is known.
 */
export async function liveScorers(
  store: Store,
  episodeId: number,
): Promise<{ by: "weights" | "servers"; served: { critic: string; policy: string } } | null> {
  const weights = servedModels();
  if (weights.critic && weights.policy)
    return { by: "weights", served: { critic: weights.critic, policy: weights.policy } };
  const servers = await liveServerModels(store, episodeId);
  return servers ? { by: "servers", served: servers } : null;
}
