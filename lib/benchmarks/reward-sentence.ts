import { benchmarkOf, type Benchmark } from "./index";

// One episode's score in a sentence that names what made it, where that decides whether it compares
// (a similarity names its embedder, and the weight-free one says it is not the paper's metric).

/** "similarity 0.812 (by clip-vit-b32 · openai/clip-vit-base-patch32)"; the plain sentence otherwise. */
export function rewardSentence(benchmark: Benchmark, reward: number, scoredBy: string | null | undefined): string {
  const sentence = benchmarkOf(benchmark).reward.sentence(reward);
  return scoredBy ? `${sentence} (by ${scoredBy})` : sentence;
}

/** The label `rewardSentence` names, from a run's stored config (null when the benchmark names none). */
export function scoredByOf(benchmark: Benchmark, config: unknown): string | null {
  return benchmarkOf(benchmark).reward.scoredBy?.(config)?.label ?? null;
}
