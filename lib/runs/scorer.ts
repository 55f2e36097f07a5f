import type { EpisodeOutcome } from "../colbench/episode";
import type { HiddenTask } from "../colbench/roles";
import type { EpisodeScore, RunServices } from "./runner";

/** Scores a finished episode's answer; backend and frontend scorers both fit behind it. */
export interface AnswerScorer {
  score(task: HiddenTask, outcome: EpisodeOutcome): Promise<EpisodeScore>;
  close(): Promise<void>;
}

/** A scorer opened for a run, with the services it brings along (the frontend's page renderer). */
export interface OpenScorer extends AnswerScorer {
  services: Pick<RunServices, "renderer">;
}
