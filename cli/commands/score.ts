import { Command, Option } from "commander";
import { BENCHMARKS, benchmarkOf } from "../../lib/benchmarks";
import type { ScoreCli } from "../../lib/benchmarks/score-cli";
import { action } from "../errors";
import { hubProgress } from "../hub-progress";
import { positiveInt } from "../score-lines";

// `colbench score NAME IN.jsonl`: one subcommand for each registered benchmark that scores files
// (its module's `scoreCli`, described in its folder's score-cli.ts), in registry order.

/** Adds one benchmark's command under an existing `score` command. */
export function registerScoreCommand(score: Command, name: string, cli: ScoreCli): void {
  const command = score.command(name).description(cli.description).argument("<in>", cli.input);
  for (const spec of cli.options) {
    const option = new Option(spec.flags, spec.description);
    if (spec.choices) option.choices(spec.choices);
    if (spec.positiveInt) option.argParser(positiveInt);
    command.addOption(option);
  }
  command.action(
    action(async (file: string, opts: Record<string, unknown>) => {
      process.exitCode = await cli.run(file, opts, {
        io: { stdout: process.stdout, stderr: process.stderr },
        hubProgress: () => hubProgress(),
      });
    }),
  );
}

export function register(program: Command): void {
  const score = program.command("score").description("score answers (prints a summary as the last line of stdout)");
  for (const name of BENCHMARKS) {
    const cli = benchmarkOf(name).scoreCli;
    if (cli) registerScoreCommand(score, name, cli);
  }
}
