// What the desk's progress line says beyond the counts: whether a person has reached the queue's
// quota, and about how long the pairs left for them take at their own pace: the median of their
// latest label times in this queue (the per-pair timer every label stores in Label.ms, sent when
// the desk opens) and of the labels they stored since.

export interface PaceInput {
  /** Pairs left for this person (already capped by the quota: lib/store/labels.ts, leftSql). */
  left: number;
  quota: number | null;
  /** Their labelled non-gold pairs, what the quota counts (null without a quota). */
  counted: number | null;
  /** Their median time per label (components/label/useDesk.ts: recent times and this visit's). */
  medianMs: number | null;
}

/** A person at (or past: the lead may lower it) the queue's quota is handed no more pairs. */
export function atQuota(p: Pick<PaceInput, "quota" | "counted">): boolean {
  return p.quota !== null && p.counted !== null && p.counted >= p.quota;
}

/** Time the pairs left would take at this person's median pace; null before their first label. */
export function timeLeftMs(p: Pick<PaceInput, "left" | "medianMs">): number | null {
  if (p.left === 0) return 0;
  return p.medianMs === null ? null : p.left * p.medianMs;
}

/** A duration as a person reads an estimate: seconds under a minute, minutes under an hour, then hours and minutes. */
export function roughDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
