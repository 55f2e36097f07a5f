import type { Benchmark } from "./tasks";

// Where the benchmark's own task files live on the Hugging Face hub: the dataset published with
// the SWEET-RL paper. It holds backend_tasks/{train,test}.jsonl (and the offline trajectories
// colbench_code_offline_15k_llama8b.jsonl, never fetched here). Its frontend tasks are not in it:
// the paper's code builds them from HuggingFaceM4/WebSight (v0.2), so a frontend file is taken
// where a dataset has one under the same layout and reported as absent otherwise.

export const OFFICIAL_DATASET = "datasets/facebook/collaborative_agent_bench";
export const OFFICIAL_SPLITS = ["test", "train"] as const;
export type OfficialSplit = (typeof OFFICIAL_SPLITS)[number];

export function officialFile(benchmark: Benchmark, split: OfficialSplit): string {
  return `${benchmark}_tasks/${split}.jsonl`;
}

/** The source recorded with imported tasks: the dataset's name and the file's path in it. */
export function officialSource(dataset: string, file: string): string {
  return `${dataset.replace(/^datasets\//, "").replace(/@.*$/, "").split("/").pop()}/${file}`;
}

export const FRONTEND_ABSENT_NOTE =
  "the benchmark's frontend tasks are built from HuggingFaceM4/WebSight (v0.2) by the paper's code rather than published in this dataset; import such a file with `colbench import FILE --benchmark frontend`";
