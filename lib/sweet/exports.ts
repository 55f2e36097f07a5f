import { criticTrainingText, groundTruthPrefix } from "./critic";

// Training files, one JSON object a line, in the shapes the trainers read.

/**
 * A trajectory pair for critic training (OpenRLHF `train_rm`/`train_dpo --chosen_key chosen
 * --rejected_key rejected`): `strings`, one string a side (prefix, input, output), which OpenRLHF's
 * RewardDataset reads for either benchmark; `objects`, sides as `{input, output}` with the prefix on
 * the input, as the published frontend script writes them.
 */
export function criticPairLine(
  shape: "strings" | "objects",
  groundTruth: string | null,
  chosen: { input: string; output: string },
  rejected: { input: string; output: string },
): Record<string, unknown> {
  if (shape === "strings") {
    return {
      chosen: criticTrainingText(groundTruth, chosen.input, chosen.output),
      rejected: criticTrainingText(groundTruth, rejected.input, rejected.output),
    };
  }
  const prefix = groundTruth === null ? "" : groundTruthPrefix(groundTruth);
  return {
    chosen: { input: prefix + chosen.input, output: chosen.output },
    rejected: { input: prefix + rejected.input, output: rejected.output },
  };
}

/** A turn pair for the policy: full texts ending in the end-of-turn token, or with the prompt apart. */
export function policyPairLine(
  input: string,
  chosen: string,
  rejected: string,
  endOfTurn: string,
  withPrompt: boolean,
): Record<string, string> {
  return withPrompt
    ? { prompt: input, chosen: chosen + endOfTurn, rejected: rejected + endOfTurn }
    : { chosen: input + chosen + endOfTurn, rejected: input + rejected + endOfTurn };
}

/**
 * TRL's standard (string) preference format for DPOTrainer: the prompt as the policy saw it, the
 * replies ending in the end-of-turn token. TRL applies no chat template to strings and adds the eos
 * token only where a reply lacks it, so prompt + reply is the OpenRLHF policy line's text exactly
 * (the conversational format would re-render the reply, and Llama 3's template trims it).
 */
export function trlDpoLine(
  prompt: string,
  chosen: string,
  rejected: string,
  endOfTurn: string,
): Record<string, string> {
  return { prompt, chosen: chosen + endOfTurn, rejected: rejected + endOfTurn };
}
