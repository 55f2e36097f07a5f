import { benchmarkOf } from "../benchmarks";
import type { RunConfig } from "../benchmarks/run-config";
import type { OpenScorer } from "../benchmarks/scorer";

// A run's scorer, opened by its benchmark's runtime: loaded only when a run is played or scored,
// never when runs are listed.

/** The scorer of a run's benchmark, under the run's options (a frontend run's render profile and embedder). */
export async function openScorer(config: Pick<RunConfig, "benchmark"> & Record<string, unknown>): Promise<OpenScorer> {
  return (await benchmarkOf(config.benchmark).runtime()).openScorer(config);
}
