import type { EpisodeToScore, TurnScores } from "../store/episode-scores";
import type { RecordedTemplate } from "../sweet/chat-template";
import type { RankSettings } from "../sweet/rank-settings";
import type { ScoringDefinition } from "../sweet/scoring-definition";

// What the replay page (and an episode's live advantages) and its scoring Web Worker (workers/browser/gpu-scoring.worker.ts) say to
// each other, and what the page sends the studio to keep.

export interface ScoreRequestMessage {
  type: "score";
  /** Where the studio serves the two models' files: `${base}/critic/FILE`, `${base}/policy/FILE`. */
  weightsBase: string;
  inputs: EpisodeToScore;
  /** Live scoring: only these agent turns (each as it is stored). */
  only?: number[];
  /** Live scoring: keep the models loaded for the next request (an episode that goes on playing). */
  keep?: boolean;
}

/** The definition a browser scored with, as it travels (the template as the run records it). */
export interface UsedDefinition {
  template: RecordedTemplate;
  templateFrom: ScoringDefinition["templateFrom"];
  settings: RankSettings;
  settingsFrom: ScoringDefinition["settingsFrom"];
}

export function usedDefinition(d: ScoringDefinition): UsedDefinition {
  return {
    template: d.template.recorded,
    templateFrom: d.templateFrom,
    settings: d.settings,
    settingsFrom: d.settingsFrom,
  };
}

export type ScoringMessage =
  | { type: "adapter"; device: string }
  | { type: "loading"; model: "critic" | "policy"; loaded: number; total: number }
  | { type: "definition"; definition: UsedDefinition }
  | { type: "scoring"; done: number; total: number }
  | { type: "done"; turns: TurnScores[]; definition: UsedDefinition }
  | { type: "error"; message: string };

/** POST /api/episodes/:id/browser-scores: kept as a record of its own, never over what `rank` stored. */
export interface BrowserScoresBody {
  device: string;
  definition: UsedDefinition;
  turns: TurnScores[];
}
