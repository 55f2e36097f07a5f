import path from "node:path";
import { officialDatasets, officialSource, type OfficialSplit } from "../benchmarks/official";
import type { Benchmark } from "../benchmarks";
import { resolveDataset, type FileProgress } from "../hub";
import type { Store } from "../store";
import type { ImportSummary } from "../store/import-tasks";

// `colbench import --official` and the Tasks page's button: each benchmark's JSONL files fetched
// through the hub resolver (or found in the shared cache), one request per dataset, then imported
// exactly as a file is, with the same validation and the same idempotence (tasks are keyed on content).

export interface OfficialImportOptions {
  split: OfficialSplit;
  /** Another dataset laid out the same way (a mirror, a fork with frontend files); a folder works too. */
  dataset?: string;
  /** Only this benchmark's files (default: every benchmark with an official source). */
  benchmark?: Benchmark;
  onDownload?: (progress: FileProgress) => void;
  onImport?: (progress: { benchmark: Benchmark; lines: number; inserted: number }) => void;
  onProblem?: (message: string) => void;
  signal?: AbortSignal;
}

export interface OfficialFileResult {
  benchmark: Benchmark;
  /** The dataset the file came from (its hub repository, or the folder given). */
  dataset: string;
  file: string;
  /** Absent from the dataset: why, and what to do instead. */
  absent?: string;
  summary?: ImportSummary;
}

export async function importOfficial(
  store: Store,
  options: OfficialImportOptions,
): Promise<{ datasets: Array<{ dataset: string; commit?: string }>; results: OfficialFileResult[] }> {
  const datasets: Array<{ dataset: string; commit?: string }> = [];
  const results: OfficialFileResult[] = [];
  const groups = officialDatasets(options.benchmark);
  // Typed with `as`: it is set inside a callback, so TypeScript must not narrow it to null below.
  let firstError = null as Error | null;
  for (const group of groups) {
    const dataset = options.dataset ?? group.dataset;
    // A benchmark's official files: its first (required unless the source is optional) and any more.
    const files = group.benchmarks.flatMap(({ benchmark, source }) =>
      [source.file(options.split), ...(source.moreFiles?.(options.split) ?? [])].map((file) => ({
        benchmark,
        source,
        file,
      })),
    );
    const resolved = await resolveDataset(dataset, {
      files: files.filter((f) => !f.source.optional).map((f) => f.file),
      optional: files.filter((f) => f.source.optional).map((f) => f.file),
      onProgress: options.onDownload,
      signal: options.signal,
    }).catch((error: unknown) => {
      // One dataset out of reach (offline, not on this hub) does not keep the others' tasks out;
      // when none can be reached, the first reason is the command's.
      if (options.signal?.aborted || groups.length === 1) throw error;
      firstError ??= error instanceof Error ? error : new Error(String(error));
      const reason = error instanceof Error ? error.message : String(error);
      for (const { benchmark, file } of files)
        results.push({ benchmark, dataset, file, absent: `${dataset} could not be fetched: ${reason}` });
      return null;
    });
    if (!resolved) continue;
    const label = resolved.repo ?? resolved.folder;
    datasets.push({ dataset: label, commit: resolved.commit });
    for (const { benchmark, source, file } of files) {
      if (!resolved.files.includes(file)) {
        results.push({
          benchmark,
          dataset: label,
          file,
          absent: `${resolved.repo ?? dataset} has no ${file}${source.absentNote ? `: ${source.absentNote}` : ""}`,
        });
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
      results.push({ benchmark, dataset: label, file, summary });
    }
  }
  if (datasets.length === 0 && firstError) throw firstError;
  return { datasets, results };
}
