import fs from "node:fs";
import { Command } from "commander";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

export function register(program: Command): void {
  program
    .command("import-advantages")
    .description("attach per-turn critic advantages computed elsewhere to stored agent turns (the replay charts them)")
    .argument("<file>", "JSONL, one agent turn a line: {episode: ID, turn: INDEX, advantage: NUMBER}")
    .action(
      action(async (file: string) => {
        if (!fs.existsSync(file)) fail(`${file}: no such file`);
        const result = await withDatabase("import-advantages", (store) =>
          store.trajectories.importAdvantages(file, (message) => process.stderr.write(`${message}\n`)),
        );
        console.log(JSON.stringify({ updated: result.updated, bad: result.problems.length }));
        if (result.problems.length) process.exitCode = 1;
      }),
    );
}
