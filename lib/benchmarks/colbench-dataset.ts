// Where ColBench's own task files live on the Hugging Face hub: the dataset published with the
// SWEET-RL paper. It holds backend_tasks/{train,test}.jsonl (and the offline trajectories
// colbench_code_offline_15k_llama8b.jsonl, never fetched here). Its frontend tasks are not in it:
// the paper's code builds them from HuggingFaceM4/WebSight (v0.2), so a frontend file is taken
// where a dataset has one under the same layout and reported as absent otherwise.

export const COLBENCH_DATASET = "datasets/facebook/collaborative_agent_bench";

/** A benchmark's file of a split in that dataset's layout: NAME_tasks/SPLIT.jsonl. */
export function colbenchFile(benchmark: string, split: "train" | "test"): string {
  return `${benchmark}_tasks/${split}.jsonl`;
}
