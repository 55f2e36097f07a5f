import type { Store } from "../store";
import { chatTemplate, isTemplateName, type ChatTemplate, type RecordedTemplate } from "./chat-template";
import { loadTemplate, templateDay } from "./model-template";
import {
  DEFAULT_RANK_SETTINGS,
  describeRankSettings,
  isRankSettings,
  rankOptions,
  sameRankSettings,
  type RankSettings,
} from "./rank-settings";

/**
 * The chat template a run's strings are written in. The first step given `--template` records it
 * (a model's own template with the run's start day for its dates, or a named fallback); later steps
 * and exports use the record, and refuse another template, so critic prompts, policy prompts and
 * exports never mix two. With no record and no request: the Llama 3 fallback, unrecorded.
 */
export async function templateForRun(store: Store, runId: number, requested?: string): Promise<ChatTemplate> {
  const run = await store.sweet.template(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const recorded = run.recorded as RecordedTemplate | null;
  if (recorded) {
    if (requested !== undefined && requested !== recorded.ref) {
      throw new Error(
        `run ${run.name} writes its strings in the chat template ${recorded.ref} (recorded by its first step); --template ${requested} would mix two. Leave --template out, or give ${recorded.ref}`,
      );
    }
    return chatTemplate(recorded);
  }
  if (requested === undefined) return chatTemplate("llama3");
  const template = isTemplateName(requested)
    ? chatTemplate(requested)
    : await loadTemplate(requested, { date: templateDay(run.createdAt) });
  await store.sweet.recordTemplate(runId, template.recorded as unknown as Record<string, unknown>);
  // Another process may have recorded first: its record wins.
  return chatTemplate(((await store.sweet.template(runId))?.recorded as RecordedTemplate | null) ?? template.recorded);
}

/**
 * The settings a run's candidates are ranked with. The first ranking that scores anything records
 * them (`record`); a later one asked for other settings is refused, so a run's advantages are never
 * a mix of means and sums, or of critics told and not told the final answer. A run ranked before
 * settings were recorded has none: what is asked is used (and recorded once it ranks something).
 */
export async function rankSettingsForRun(
  store: Store,
  runId: number,
  requested: Partial<RankSettings>,
  options: { record: boolean },
): Promise<RankSettings> {
  const run = await store.sweet.rankSettings(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const wanted: RankSettings = {
    sum: requested.sum ?? DEFAULT_RANK_SETTINGS.sum,
    groundTruth: requested.groundTruth ?? DEFAULT_RANK_SETTINGS.groundTruth,
  };
  const recorded = isRankSettings(run.rank) ? run.rank : null;
  if (recorded) {
    if (!sameRankSettings(recorded, wanted)) {
      throw new Error(
        `run ${run.name} is ranked with ${describeRankSettings(recorded)} (recorded by its first ranking: ${rankOptions(recorded)}); ${describeRankSettings(wanted)} would mix two. Give ${rankOptions(recorded)}`,
      );
    }
    return recorded;
  }
  if (!options.record) return wanted;
  await store.sweet.recordRankSettings(runId, { sum: wanted.sum, groundTruth: wanted.groundTruth });
  // Another process may have recorded first: its record wins, and a different one is refused.
  const now = (await store.sweet.rankSettings(runId))?.rank;
  if (isRankSettings(now) && !sameRankSettings(now, wanted))
    return rankSettingsForRun(store, runId, requested, options);
  return wanted;
}
