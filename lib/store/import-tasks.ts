import fs from "node:fs";
import readline from "node:readline";
import type { PrismaClient } from "../db/generated/client";
import { formatProblem, taskContentHash, type TaskInput } from "../colbench/tasks";
import { parseTaskLine } from "../benchmarks/tasks";
import { benchmarkToWrite } from "./benchmark-names";

export interface ImportOptions {
  /** The file's path, or its name when the lines come from elsewhere (a browser upload). */
  file: string;
  /** The lines themselves (one part of a file sent in parts); read from `file` when absent. */
  lines?: Iterable<string> | AsyncIterable<string>;
  /** The line number of the first of `lines` in its file (1 when absent). */
  firstLine?: number;
  /** A registered benchmark's name; any other is refused before a line is read. */
  benchmark: string;
  split?: string;
  /** Dataset name recorded as each task's source; defaults to the file's base name. */
  name?: string;
  /** Rows written per statement: large enough to be fast, small enough to bound memory. */
  batchSize?: number;
  onProblem?: (message: string) => void;
  onProgress?: (progress: { lines: number; inserted: number }) => void;
}

export interface ImportSummary {
  file: string;
  lines: number;
  valid: number;
  inserted: number;
  /** Valid lines whose task was already stored (re-imports). */
  existing: number;
  problems: string[];
}

/** A file's lines, streamed. */
export function readLines(file: string): AsyncIterable<string> {
  return readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
}

/**
 * Streams a JSONL file into the Task table. Every valid line is kept even when others are
 * broken, and re-importing is a no-op because tasks are keyed on benchmark + content hash.
 */
export async function importTasks(prisma: PrismaClient, options: ImportOptions): Promise<ImportSummary> {
  const benchmark = benchmarkToWrite(options.benchmark);
  const split = options.split ?? "test";
  const source = options.name ?? options.file.split(/[\\/]/).pop() ?? options.file;
  const batchSize = options.batchSize ?? 500;
  const summary: ImportSummary = { file: options.file, lines: 0, valid: 0, inserted: 0, existing: 0, problems: [] };
  const report = (message: string) => {
    summary.problems.push(message);
    options.onProblem?.(message);
  };

  let batch: Array<{ task: TaskInput; line: number }> = [];
  const flush = async () => {
    if (!batch.length) return;
    // Two identical lines inside one batch would otherwise count as one insert and one "existing".
    const result = await prisma.task.createMany({
      data: batch.map(({ task, line }) => ({
        benchmark,
        split,
        problemDescription: task.problemDescription,
        groundTruth: task.groundTruth,
        hiddenInformation: task.hiddenInformation,
        testCases: task.testCases === null ? undefined : (task.testCases as unknown as object),
        source,
        sourceIndex: line,
        contentHash: taskContentHash(task),
      })),
      skipDuplicates: true,
    });
    summary.inserted += result.count;
    summary.existing += batch.length - result.count;
    batch = [];
    options.onProgress?.({ lines: summary.lines, inserted: summary.inserted });
  };

  const lines = options.lines ?? readLines(options.file);
  let lineNumber = (options.firstLine ?? 1) - 1;
  for await (const raw of lines) {
    lineNumber++;
    const line = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (!line.trim()) continue;
    summary.lines++;
    const parsed = parseTaskLine(line, benchmark);
    if (!parsed.ok) {
      for (const problem of parsed.problems) report(formatProblem(options.file, lineNumber, problem));
      continue;
    }
    summary.valid++;
    batch.push({ task: parsed.task, line: lineNumber });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return summary;
}
