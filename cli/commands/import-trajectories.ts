import fs from "node:fs";
import { Command, Option } from "commander";
import { BENCHMARKS, type Benchmark } from "../../lib/benchmarks";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

export function register(program: Command): void {
  program
    .command("import-trajectories")
    .description("load a trajectory JSONL file (the benchmark's format) as a finished run")
    .argument("<file>", "JSONL, one episode a line: {task, dialogue_history, answer, reward}")
    .option("--name <run>", "the new run's name (default: from the file name)")
    .addOption(
      new Option(
        "--benchmark <kind>",
        "the tasks' benchmark (default: the one whose task format each record matches)",
      ).choices(BENCHMARKS),
    )
    .action(
      action(async (file: string, opts: { name?: string; benchmark?: Benchmark }) => {
        if (!fs.existsSync(file)) fail(`${file}: no such file`);
        const result = await withDatabase("import-trajectories", (store) =>
          store.trajectories.import(file, { ...opts, onProblem: (message) => process.stderr.write(`${message}\n`) }),
        );
        console.log(
          JSON.stringify({
            run: result.runName,
            episodes: result.episodes,
            tasks_created: result.tasksCreated,
            bad: result.problems.length,
          }),
        );
        if (result.problems.length) process.exitCode = 1;
      }),
    );
}
