import type { RecordedTemplate } from "./chat-template";

// What a turn's score means: the chat template its strings are written in and the two settings of
// the ranking step (`colbench rank --sum`, `--no-ground-truth`). A run records all three with its
// first step, so every place that scores its turns (rank with a server or with local weights, the
// queue's workers, the studio's jobs, a browser on the replay) scores the same strings the same way.
// Imported by the replay's page and Web Worker: no Node, and no template engine, here.

export interface RankSettings {
  /** Summed log-probs (critic and policy) instead of means. */
  sum: boolean;
  /** The task's final answer in front of the critic's prompt. */
  groundTruth: boolean;
}

/** `rank` without `--sum` or `--no-ground-truth`. */
export const DEFAULT_RANK_SETTINGS: RankSettings = { sum: false, groundTruth: true };

export function isRankSettings(value: unknown): value is RankSettings {
  const v = value as Partial<RankSettings> | null;
  return typeof v === "object" && v !== null && typeof v.sum === "boolean" && typeof v.groundTruth === "boolean";
}

export function sameRankSettings(a: RankSettings, b: RankSettings): boolean {
  return a.sum === b.sum && a.groundTruth === b.groundTruth;
}

/** In words, as the replay and the CLI's refusals say it. */
export function describeRankSettings(s: RankSettings): string {
  return `${s.sum ? "summed" : "mean"} log-probs, ${s.groundTruth ? "with" : "without"} the final answer`;
}

/** The options of `rank` that give these settings. */
export function rankOptions(s: RankSettings): string {
  const options = [s.sum ? "--sum" : null, s.groundTruth ? null : "--no-ground-truth"].filter(Boolean);
  return options.length ? options.join(" ") : "neither --sum nor --no-ground-truth";
}

/** A recorded template in words: a folder by its last part, with the day its dates render. */
export function describeTemplate(t: RecordedTemplate): string {
  const name =
    t.ref
      .replace(/[\\/]+$/, "")
      .split(/[\\/]/)
      .pop() || t.ref;
  return t.chatTemplate ? `${name} (the model's own${t.date ? `, dated ${t.date}` : ""})` : name;
}

/** Two records write the same strings: same Jinja source, special tokens, header and day (or the same fallback). */
export function sameTemplate(a: RecordedTemplate, b: RecordedTemplate): boolean {
  if (!a.chatTemplate || !b.chatTemplate) return !a.chatTemplate && !b.chatTemplate && a.ref === b.ref;
  return (
    a.chatTemplate === b.chatTemplate &&
    a.date === b.date &&
    JSON.stringify(a.specialTokens ?? {}) === JSON.stringify(b.specialTokens ?? {}) &&
    (a.assistantHeaderTokens ?? null) === (b.assistantHeaderTokens ?? null)
  );
}
