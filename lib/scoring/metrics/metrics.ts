// The paper's backend metrics, as pure functions of rewards (passed tests / all tests).

export interface RewardSummary {
  /** Scored samples. */
  n: number;
  /** Mean reward over samples (the paper's "% tests passed"). */
  average_correctness: number;
  /** Fraction of samples with reward 1 (every test passed). */
  success_rate: number;
  /** Mean over tasks of the best reward among the task's first k samples. */
  best_of_k: number;
  /** Fraction of tasks where one of the first k samples passed every test. */
  best_of_k_success: number;
  /** Distinct tasks. */
  tasks: number;
  /** Samples per task considered for best-of-k. */
  k: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function averageCorrectness(rewards: readonly number[]): number {
  return mean(rewards);
}

export function successRate(rewards: readonly number[]): number {
  return mean(rewards.map((r) => (r === 1 ? 1 : 0)));
}

/** A task's best-of-k reward: the best of its first k samples (all of them when k is omitted). */
export function bestOfTask(samples: readonly number[], k?: number): number {
  return Math.max(...(k === undefined ? samples : samples.slice(0, k)));
}

/** Best-of-k over tasks: `groups` holds each task's sample rewards in sampling order; only the
 *  first k of each count (all of them when k is omitted). */
export function bestOfK(
  groups: readonly (readonly number[])[],
  k?: number,
): { bestOfK: number; bestOfKSuccess: number } {
  const best = groups.filter((g) => g.length > 0).map((g) => bestOfTask(g, k));
  return { bestOfK: mean(best), bestOfKSuccess: successRate(best) };
}

/** Groups items by key, groups in order of first appearance, items in input order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}

export function summarizeRewards(samples: readonly { task: string; reward: number }[], k?: number): RewardSummary {
  const rewards = samples.map((s) => s.reward);
  const groups = groupBy(samples, (s) => s.task).map((g) => g.map((s) => s.reward));
  const { bestOfK: best, bestOfKSuccess } = bestOfK(groups, k);
  return {
    n: samples.length,
    average_correctness: averageCorrectness(rewards),
    success_rate: successRate(rewards),
    best_of_k: best,
    best_of_k_success: bestOfKSuccess,
    tasks: groups.length,
    k: k ?? Math.max(0, ...groups.map((g) => g.length)),
  };
}
