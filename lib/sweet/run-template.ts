import type { Store } from "../store";
import { chatTemplate, isTemplateName, type ChatTemplate, type RecordedTemplate } from "./chat-template";
import { loadTemplate, templateDay } from "./model-template";

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
      throw new Error(`run ${run.name} writes its strings in the chat template ${recorded.ref} (recorded by its first step); --template ${requested} would mix two. Leave --template out, or give ${recorded.ref}`);
    }
    return chatTemplate(recorded);
  }
  if (requested === undefined) return chatTemplate("llama3");
  const template = isTemplateName(requested) ? chatTemplate(requested) : await loadTemplate(requested, { date: templateDay(run.createdAt) });
  await store.sweet.recordTemplate(runId, template.recorded as unknown as Record<string, unknown>);
  // Another process may have recorded first: its record wins.
  return chatTemplate(((await store.sweet.template(runId))?.recorded as RecordedTemplate | null) ?? template.recorded);
}
