import type { EpisodeOutcome, PageRenderer } from "../colbench/episode";
import type { HiddenTask } from "../colbench/roles";

/** An episode's score: its reward and what the benchmark's scorer says about it (tests, renders, errors). */
export interface EpisodeScore {
  reward: number;
  details: unknown;
}

/** Scores a finished episode's answer; every benchmark's scorer fits behind it. */
export interface AnswerScorer {
  score(task: HiddenTask, outcome: EpisodeOutcome): Promise<EpisodeScore>;
  close(): Promise<void>;
}

/** A scorer opened for a run, with the services it brings along (a page renderer for page answers). */
export interface OpenScorer extends AnswerScorer {
  services: { renderer?: PageRenderer };
}
