import type { EpisodeToScore, TurnScores } from "../store/episode-scores";

// What the replay page and its scoring Web Worker (workers/browser/gpu-scoring.worker.ts) say to
// each other.

export interface ScoreRequestMessage {
  type: "score";
  /** Where the studio serves the two models' files: `${base}/critic/FILE`, `${base}/policy/FILE`. */
  weightsBase: string;
  inputs: EpisodeToScore;
}

export type ScoringMessage =
  | { type: "adapter"; device: string }
  | { type: "loading"; model: "critic" | "policy"; loaded: number; total: number }
  | { type: "template"; template: string; from: "critic's chat template" | "default" }
  | { type: "scoring"; done: number; total: number }
  | { type: "done"; turns: TurnScores[]; template: string }
  | { type: "error"; message: string };
