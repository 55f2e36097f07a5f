import type { Benchmark } from "../colbench/tasks";
import { criticTrainingText, groundTruthPrefix } from "./critic";

// Training files, one JSON object a line, in the shapes the trainers read.

/**
 * A trajectory pair for critic training (OpenRLHF `train_dpo --chosen_key chosen --rejected_key
 * rejected`). Backend sides are one string; frontend sides are `{input, output}` with the prefix on
 * the input, as the published scripts write them.
 */
export function criticPairLine(
  benchmark: Benchmark,
  groundTruth: string | null,
  chosen: { input: string; output: string },
  rejected: { input: string; output: string },
): Record<string, unknown> {
  if (benchmark === "backend") {
    return { chosen: criticTrainingText(groundTruth, chosen.input, chosen.output), rejected: criticTrainingText(groundTruth, rejected.input, rejected.output) };
  }
  const prefix = groundTruth === null ? "" : groundTruthPrefix(groundTruth);
  return { chosen: { input: prefix + chosen.input, output: chosen.output }, rejected: { input: prefix + rejected.input, output: rejected.output } };
}

/** A turn pair for the policy: full texts ending in the end-of-turn token, or with the prompt apart. */
export function policyPairLine(input: string, chosen: string, rejected: string, endOfTurn: string, withPrompt: boolean): Record<string, string> {
  return withPrompt
    ? { prompt: input, chosen: chosen + endOfTurn, rejected: rejected + endOfTurn }
    : { chosen: input + chosen + endOfTurn, rejected: input + rejected + endOfTurn };
}

/** TRL's conversational preference format for DPOTrainer. */
export function trlDpoLine(prompt: Array<{ role: string; content: string }>, chosen: string, rejected: string): Record<string, unknown> {
  return { prompt, chosen: [{ role: "assistant", content: chosen }], rejected: [{ role: "assistant", content: rejected }] };
}
