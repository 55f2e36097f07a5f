import type { Choice } from "../store/queues";
import type { LabelRow } from "../store/labels";

// A reliability-weighted majority beside the plain one. A person's reliability is their accuracy on
// the queue's gold pairs with one right and one wrong answer added (Laplace's rule: (correct + 1) /
// (gold labelled + 2)), so someone with no gold labels counts 0.5 and someone who got 9 of 9 counts
// 10/11. A pair's weighted outcome is the choice whose labellers' reliabilities sum highest (a tie
// between the top sums is "split"). Gold pairs themselves are answered already and not decided here.

export function reliabilities(labels: LabelRow[]): Map<number, number> {
  const tally = new Map<number, { correct: number; gold: number }>();
  for (const l of labels) {
    const t = tally.get(l.userId) ?? { correct: 0, gold: 0 };
    if (l.item.gold) {
      t.gold++;
      if (l.choice === l.item.gold) t.correct++;
    }
    tally.set(l.userId, t);
  }
  return new Map([...tally].map(([user, t]) => [user, (t.correct + 1) / (t.gold + 2)]));
}

export interface WeightedDecision {
  itemId: number;
  outcome: Choice | "split";
  /** Each choice's summed reliability. */
  weights: Partial<Record<Choice, number>>;
}

export function weightedDecisions(labels: LabelRow[]): WeightedDecision[] {
  const weight = reliabilities(labels);
  const byItem = new Map<number, Partial<Record<Choice, number>>>();
  for (const l of labels) {
    if (l.item.gold) continue;
    const sums = byItem.get(l.itemId) ?? {};
    sums[l.choice] = (sums[l.choice] ?? 0) + weight.get(l.userId)!;
    byItem.set(l.itemId, sums);
  }
  return [...byItem].map(([itemId, weights]) => {
    const top = Math.max(...Object.values(weights));
    // Sums of a few fractions: equal within rounding counts as equal.
    const leaders = (Object.keys(weights) as Choice[]).filter((c) => Math.abs(weights[c]! - top) < 1e-12);
    return { itemId, outcome: leaders.length === 1 ? leaders[0]! : "split", weights };
  });
}
