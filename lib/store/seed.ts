import path from "node:path";
import type { PrismaClient } from "../db/generated/client";
import { projectRoot } from "../paths";
import { BENCHMARKS } from "../benchmarks";
import { importTasks, type ImportSummary } from "./import-tasks";

export const SAMPLE_SOURCE = "colbench-studio-samples";

/** Every registered benchmark's sample tasks (samples/NAME.jsonl) go into an empty database, so a new studio has something to show. */
export async function seedSamplesIfEmpty(prisma: PrismaClient): Promise<ImportSummary[]> {
  if ((await prisma.task.count()) > 0) return [];
  const summaries: ImportSummary[] = [];
  for (const benchmark of BENCHMARKS) {
    summaries.push(
      await importTasks(prisma, {
        file: path.join(projectRoot, "samples", `${benchmark}.jsonl`),
        benchmark,
        split: "sample",
        name: SAMPLE_SOURCE,
      }),
    );
  }
  return summaries;
}
