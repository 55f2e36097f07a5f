import { benchmarkOf } from "../benchmarks";
import type { OfficialTrajectory } from "../benchmarks/trajectory";
import type { Store } from "../store";
import { promptText, type ChatTemplate } from "./chat-template";

// The benchmark's trajectory file as the published scripts read it: each assistant entry's `input`
// is the prompt string the policy saw (the run's chat template applied to the stored messages, as
// the published environment builds it); `evaluate_*.py` and `sample_best_of_n.py` concatenate it.
// `messages` keeps the stored chat messages instead (the studio's own, lossless both ways).

export type OfficialInputs = "string" | "messages";

export async function* officialLines(
  store: Store,
  runId: number,
  template: ChatTemplate,
  options: { layout?: "task" | "best-of-k"; inputs?: OfficialInputs } = {},
): AsyncGenerator<OfficialTrajectory> {
  for await (const trajectory of store.trajectories.exportOfficial(runId, { layout: options.layout })) {
    if (options.inputs === "messages") {
      yield trajectory;
      continue;
    }
    yield {
      ...trajectory,
      dialogue_history: trajectory.dialogue_history.map((turn) =>
        turn.role === "assistant" && turn.input !== null && turn.input !== undefined
          ? { ...turn, input: promptText(template, turn.input) }
          : turn,
      ),
    };
  }
}

/** What a user must know before running the benchmark's published scripts on its official export (null: nothing). */
export function officialExportNotice(benchmark: string): string | null {
  return benchmarkOf(benchmark).officialExportNotice ?? null;
}
