import { serverSpecSchema } from "../../colbench/server-spec";

/** The run options only math-hard runs have. */
export const mathHardRunOptions = {
  /**
   * The model server that judges each episode (CollabLLM's accuracy is an LLM judge: Claude 3.5
   * Sonnet in its published evaluation). Recorded with the run, so a rescore asks the same judge.
   */
  judge: serverSpecSchema,
};
