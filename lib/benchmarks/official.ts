import { BENCHMARKS, benchmarks, type Benchmark } from "./index";
import type { OfficialSource } from "./module";

// The benchmarks' own published task files, grouped by the hub dataset that holds them, so that
// `colbench import --official` and the Tasks page's button fetch each dataset once.

export const OFFICIAL_SPLITS = ["test", "train"] as const;
export type OfficialSplit = (typeof OFFICIAL_SPLITS)[number];

/** One hub dataset and the benchmarks whose official files it holds, in registry order. */
export interface OfficialDataset {
  dataset: string;
  benchmarks: Array<{ benchmark: Benchmark; source: OfficialSource }>;
}

/** The datasets of every benchmark with an official source (or only `only`'s), in registry order. */
export function officialDatasets(only?: Benchmark): OfficialDataset[] {
  const groups = new Map<string, OfficialDataset>();
  for (const benchmark of BENCHMARKS) {
    const source = benchmarks[benchmark].official;
    if (!source || (only !== undefined && benchmark !== only)) continue;
    const group = groups.get(source.dataset) ?? { dataset: source.dataset, benchmarks: [] };
    group.benchmarks.push({ benchmark, source });
    groups.set(source.dataset, group);
  }
  return [...groups.values()];
}

/** The source recorded with imported tasks: the dataset's name and the file's path in it. */
export function officialSource(dataset: string, file: string): string {
  return `${dataset
    .replace(/^datasets\//, "")
    .replace(/@.*$/, "")
    .split("/")
    .pop()}/${file}`;
}
