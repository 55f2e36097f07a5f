import type { LabelRow } from "../store/labels";
import type { QueueRow } from "../store/queues";

// Gold that acts. A queue may set an accuracy threshold on its gold pairs (known answers): a member
// who has labelled at least `goldMinimum` of them and got fewer than `goldThreshold` right is
// paused — the desk hands them nothing and takes no label from them, and says why — and their
// labels can be left out of the exports (`colbench labels export --exclude-paused`).

export type GoldRule = Pick<QueueRow, "goldThreshold" | "goldMinimum">;

export interface Standing {
  labelled: number;
  correct: number;
}

/** Why this person is paused at this queue, or null. */
export function pausedBecause(rule: GoldRule, standing: Standing): string | null {
  if (rule.goldThreshold === null || rule.goldThreshold === undefined || standing.labelled < rule.goldMinimum)
    return null;
  const accuracy = standing.correct / standing.labelled;
  if (accuracy >= rule.goldThreshold) return null;
  return `you are paused at this queue: ${standing.correct} of ${standing.labelled} pairs with a known answer were labelled as known (${(accuracy * 100).toFixed(0)}%, below the ${(rule.goldThreshold * 100).toFixed(0)}% this queue asks); the queue's lead decides what comes next`;
}

/** The people a queue's rule pauses, from its labels (gold pairs included). */
export function pausedPeople(rule: GoldRule, labels: LabelRow[]): Set<number> {
  const standing = new Map<number, Standing>();
  for (const l of labels) {
    if (!l.item.gold) continue;
    const s = standing.get(l.userId) ?? { labelled: 0, correct: 0 };
    s.labelled++;
    if (l.choice === l.item.gold) s.correct++;
    standing.set(l.userId, s);
  }
  return new Set([...standing].filter(([, s]) => pausedBecause(rule, s)).map(([user]) => user));
}

/** The labels left when those of paused people are left out. */
export function withoutPaused(rule: GoldRule, labels: LabelRow[]): LabelRow[] {
  const paused = pausedPeople(rule, labels);
  return paused.size ? labels.filter((l) => !paused.has(l.userId)) : labels;
}
