import fs from "node:fs";
import { Command, Option } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { BENCHMARKS, type Benchmark } from "../../lib/benchmarks";
import { OFFICIAL_SPLITS, officialDatasets, type OfficialSplit } from "../../lib/benchmarks/official";
import { importOfficial } from "../../lib/official/import";
import type { ImportSummary } from "../../lib/store/import-tasks";
import { withDatabase } from "../database";
import { action, fail } from "../errors";
import { hubProgress } from "../hub-progress";

async function countLines(file: string): Promise<number> {
  let count = 0;
  for await (const chunk of fs.createReadStream(file)) {
    for (const byte of chunk as Buffer) if (byte === 10) count++;
  }
  return count;
}

function report(file: string, summary: ImportSummary): number {
  const bad = summary.lines - summary.valid;
  console.log(
    `${file}: ${summary.lines} lines, ${summary.inserted} new tasks, ${summary.existing} already stored, ${bad} bad`,
  );
  console.log(
    JSON.stringify({ file, lines: summary.lines, inserted: summary.inserted, existing: summary.existing, bad }),
  );
  return bad;
}

interface ImportOptions {
  benchmark?: Benchmark;
  split: string;
  name?: string;
  official?: boolean;
  dataset?: string;
}

async function importFile(file: string, opts: ImportOptions & { benchmark: Benchmark }): Promise<void> {
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
  if (report(file, summary) > 0) process.exitCode = 1;
}

/** The benchmark's own files from the hub (or the shared cache), imported like any file. */
async function importOfficialFiles(opts: ImportOptions): Promise<void> {
  const progress = hubProgress();
  const outcome = await withDatabase("import", (store) =>
    importOfficial(store, {
      split: opts.split as OfficialSplit,
      dataset: opts.dataset,
      benchmark: opts.benchmark,
      onDownload: progress.onProgress,
      onProblem: (message) => process.stderr.write(`${message}\n`),
    }).finally(() => progress.stop()),
  );
  let bad = 0;
  for (const result of outcome.results) {
    if (result.absent) process.stderr.write(`colbench: ${result.absent}\n`);
    else bad += report(`${result.dataset}/${result.file}`, result.summary!);
  }
  if (bad > 0) process.exitCode = 1;
}

export function register(program: Command): void {
  program
    .command("import")
    .description(
      "import a ColBench task file (JSONL) into the studio database, or the benchmark's own files with --official",
    )
    .argument("[file]", `JSONL file, one task per line, in a benchmark's official format (${BENCHMARKS.join(", ")})`)
    .addOption(
      new Option(
        "--benchmark <kind>",
        "which format the file is in (with --official: import only this benchmark's files)",
      ).choices(BENCHMARKS),
    )
    .addOption(
      new Option("--split <split>", "the split the tasks belong to").choices(["test", "train"]).default("test"),
    )
    .option("--name <name>", "dataset name recorded as the tasks' source (default: the file name)")
    .option(
      "--official",
      `fetch the benchmarks' own task files (${officialDatasets()
        .map((d) => d.dataset)
        .join(", ")} on the Hugging Face hub, through its cache) and import them`,
    )
    .option(
      "--dataset <ref>",
      "with --official: another hub dataset or a folder with the same layout (<benchmark>_tasks/<split>.jsonl)",
    )
    .action(
      action(async (file: string | undefined, opts: ImportOptions) => {
        if (opts.official) {
          if (file) fail("give either a FILE or --official, not both");
          if (!OFFICIAL_SPLITS.includes(opts.split as OfficialSplit))
            fail(`--split: the official files are ${OFFICIAL_SPLITS.join(" and ")}`);
          return importOfficialFiles(opts);
        }
        if (!file) fail("give a FILE to import (or --official for the benchmark's own files)");
        if (!opts.benchmark) fail(`--benchmark ${BENCHMARKS.join("|")}: which format the file is in`);
        if (opts.dataset) fail("--dataset goes with --official");
        await importFile(file, { ...opts, benchmark: opts.benchmark });
      }),
    );
}
