// The settings SWEET-RL's steps take when nothing is asked for: the published scripts' own (16
// samples per turn at temperature 1.0 and at most 1024 tokens, 8 pairs per turn drawn with seed 42
// from the N samples in task order). The CLI, the studio's jobs and the run page's forms all read
// them here, so the three never disagree. Imported by the panel: plain values only.

export const SWEET_DEFAULTS = {
  /** Candidates sampled per agent turn (the sampler's best_of_n). */
  n: 16,
  temperature: 1.0,
  maxTokens: 1024,
  /** Turn pairs drawn per agent turn (the pair script's num_pairs). */
  pairsPerState: 8,
  seed: 42,
  pool: "samples",
  order: "task",
} as const;
