import path from "node:path";
import { FRONTEND_ABSENT_NOTE, OFFICIAL_DATASET, officialFile, officialSource, type OfficialSplit } from "../colbench/official-dataset";
import { BENCHMARKS, type Benchmark } from "../colbench/tasks";
import { resolveDataset, type FileProgress } from "../hub";
import type { Store } from "../store";
import type { ImportSummary } from "../store/import-tasks";

// `colbench import --official` and the Tasks page's button: the benchmark's JSONL files fetched
// through the hub resolver (or found in the shared cache), then imported exactly as a file is,
// with the same validation and the same idempotence (tasks are keyed on content).

export interface OfficialImportOptions {
  split: OfficialSplit;
  /** Another dataset laid out the same way (a mirror, a fork with frontend files); a folder works too. */
  dataset?: string;
  onDownload?: (progress: FileProgress) => void;
  onImport?: (progress: { benchmark: Benchmark; lines: number; inserted: number }) => void;
  onProblem?: (message: string) => void;
  signal?: AbortSignal;
}

export interface OfficialFileResult {
  benchmark: Benchmark;
  file: string;
  /** Absent from the dataset: why, and what to do instead. */
  absent?: string;
  summary?: ImportSummary;
}

export async function importOfficial(store: Store, options: OfficialImportOptions): Promise<{ dataset: string; commit?: string; results: OfficialFileResult[] }> {
  const dataset = options.dataset ?? OFFICIAL_DATASET;
  const backend = officialFile("backend", options.split);
  const frontend = officialFile("frontend", options.split);
  const resolved = await resolveDataset(dataset, { files: [backend], optional: [frontend], onProgress: options.onDownload, signal: options.signal });
  const results: OfficialFileResult[] = [];
  for (const benchmark of BENCHMARKS) {
    const file = officialFile(benchmark, options.split);
    if (!resolved.files.includes(file)) {
      results.push({ benchmark, file, absent: `${resolved.repo ?? dataset} has no ${file}${benchmark === "frontend" ? `: ${FRONTEND_ABSENT_NOTE}` : ""}` });
      continue;
    }
    const summary = await store.tasks.import({
      file: path.join(resolved.folder, file),
      benchmark,
      split: options.split,
      name: officialSource(resolved.repo ?? dataset, file),
      onProblem: options.onProblem,
      onProgress: (p) => options.onImport?.({ benchmark, ...p }),
    });
    results.push({ benchmark, file, summary });
  }
  return { dataset: resolved.repo ?? resolved.folder, commit: resolved.commit, results };
}
