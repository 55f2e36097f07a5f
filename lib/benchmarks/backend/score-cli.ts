import type { ScoreCli } from "../score-cli";
import type { ScoreBackendOptions } from "./score-file";

// `colbench score backend`: described here, run by score-file.ts (the Python sandbox), loaded on use.

export const backendScoreCli: ScoreCli = {
  description: "score backend answers against their tasks' hidden tests, in the Python sandbox",
  input: "JSONL: official trajectories {task, dialogue_history, answer} or {ground_truth, test_cases, answer}",
  options: [
    { flags: "--out <file>", description: "write every scored line again, with reward and per-test results added" },
    {
      flags: "--k <k>",
      description: "samples per task counted for best-of-k (default: all of a task's samples)",
      positiveInt: true,
    },
    { flags: "--workers <n>", description: "sandbox worker processes (default: one per core)", positiveInt: true },
  ],
  run: (file, options, { io }) =>
    import(/* turbopackIgnore: true */ "./score-file").then((m) =>
      m.scoreBackendFile(file, options as ScoreBackendOptions, io),
    ),
};
