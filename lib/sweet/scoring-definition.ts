import { chatTemplate, type ChatTemplate, type RecordedTemplate, type TemplateName } from "./chat-template";
import { DEFAULT_RANK_SETTINGS, type RankSettings } from "./rank-settings";

// The definition a run's turns are scored with wherever they are scored (lib/sweet/rank-settings.ts
// says what it is made of). Imported by the replay's Web Worker: no Node here.

/** What a run has recorded (either may be missing: a run not yet sampled or ranked, or ranked before settings were recorded). */
export interface RunScoring {
  template: RecordedTemplate | null;
  settings: RankSettings | null;
}

export interface ScoringDefinition {
  template: ChatTemplate;
  /** `run`: the run's record; `critic`: none recorded, the critic's own template family, as `rank --critic-weights` would record it; `fallback`: neither, Llama 3. */
  templateFrom: "run" | "critic" | "fallback";
  settings: RankSettings;
  /** `run`: recorded by the run's ranking; `default`: none recorded, rank's defaults. */
  settingsFrom: "run" | "default";
}

/**
 * The definition a run's turns are scored with outside the ranking step: the run's record; where
 * it has none, what `rank --critic-weights` would choose and record on that run.
 */
export function scoringDefinition(run: RunScoring, criticFamily: TemplateName | null): ScoringDefinition {
  const template = run.template ? chatTemplate(run.template) : chatTemplate(criticFamily ?? "llama3");
  return {
    template,
    templateFrom: run.template ? "run" : criticFamily ? "critic" : "fallback",
    settings: run.settings ?? DEFAULT_RANK_SETTINGS,
    settingsFrom: run.settings ? "run" : "default",
  };
}
