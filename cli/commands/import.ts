import fs from "node:fs";
import { Command, Option } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { BENCHMARKS, type Benchmark } from "../../lib/colbench/tasks";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

async function countLines(file: string): Promise<number> {
  let count = 0;
  for await (const chunk of fs.createReadStream(file)) {
    for (const byte of chunk as Buffer) if (byte === 10) count++;
  }
  return count;
}

export function register(program: Command): void {
  program
    .command("import")
    .description("import a ColBench task file (JSONL) into the studio database")
    .argument("<file>", "JSONL file, one task per line, in the official backend or frontend format")
    .addOption(new Option("--benchmark <kind>", "which format the file is in").choices(BENCHMARKS).makeOptionMandatory())
    .addOption(new Option("--split <split>", "the split the tasks belong to").choices(["test", "train"]).default("test"))
    .option("--name <name>", "dataset name recorded as the tasks' source (default: the file name)")
    .action(
      action(async (file: string, opts: { benchmark: Benchmark; split: string; name?: string }) => {
        if (!fs.existsSync(file)) fail(`${file}: no such file`);
        const total = await countLines(file);
        const bar = new SingleBar(
          { format: "importing {bar} {value}/{total} lines | {inserted} new", stream: process.stderr, hideCursor: true },
          Presets.shades_classic,
        );
        const interactive = process.stderr.isTTY;
        if (interactive) bar.start(total, 0, { inserted: 0 });
        const summary = await withDatabase("import", (store) =>
          store.tasks.import({
            file,
            benchmark: opts.benchmark,
            split: opts.split,
            name: opts.name,
            onProblem: (message) => {
              if (interactive) bar.stop();
              process.stderr.write(`${message}\n`);
              if (interactive) bar.start(total, 0, { inserted: 0 });
            },
            onProgress: ({ lines, inserted }) => interactive && bar.update(lines, { inserted }),
          }),
        );
        if (interactive) bar.stop();
        const bad = summary.lines - summary.valid;
        console.log(
          `${file}: ${summary.lines} lines, ${summary.inserted} new tasks, ${summary.existing} already stored, ${bad} bad`,
        );
        console.log(JSON.stringify({ file, lines: summary.lines, inserted: summary.inserted, existing: summary.existing, bad }));
        if (bad > 0) process.exitCode = 1;
      }),
    );
}
