import type { Store } from "../store";
import type { LabelRow } from "../store/labels";
import type { Choice, QueueRow } from "../store/queues";
import { promptText, type ChatTemplate } from "../sweet/chat-template";
import { templateForRun } from "../sweet/run-template";
import { criticPairLine, policyPairLine, trlDpoLine } from "../sweet/exports";
import type { TrainingFormat } from "../sweet/pipeline";
import { weightedDecisions } from "./weighted";
import { withoutPaused } from "./gold";

// What people decided, as files: raw labels (one line per label), and the pairs they decided as
// training files in the same shapes as the SWEET-RL exports. A pair goes to a training file when
// its most frequent label is A or B alone; pairs decided tie or both bad, or split, are left out
// and counted. A graded queue's label counts as its side in the majority ("much" or "slightly"
// better A is an A): the training formats hold a chosen and a rejected side and nothing of how much,
// so the grade is kept in the raw export (`strength`, `preference` +2..-2, `criteria`) and in each
// decision's `margin`. A changed label is exported at its latest version (`version` says which).
// Review (lib/label/review.ts): a rejected label counts in no majority; a pair a reviewer
// adjudicated takes the reviewer's choice (`decidedBy: "adjudication"`, counted in the summary).

export interface Decision {
  itemId: number;
  labels: number;
  /** The side people preferred, or why there is none. */
  outcome: "a" | "b" | "tie" | "both_bad" | "split";
  /**
   * The grades summed: +2 for each "a much better", +1 for "a slightly better" (and for an ungraded
   * a), the same negative for b, 0 for tie and both bad. The outcome is still the plain majority of
   * choices; the margin says how strong it was (each raw line's `preference` is one label's part).
   */
  margin: number;
  /** Who decided: the labels' majority, or a reviewer's adjudication (which replaces it). */
  decidedBy: "majority" | "adjudication";
  item: LabelRow["item"];
}

/** A label's grade as a number: what `margin` sums. */
export function gradeValue(l: Pick<LabelRow, "choice" | "strength">): number {
  const size = l.strength === "much" ? 2 : 1;
  return l.choice === "a" ? size : l.choice === "b" ? -size : 0;
}

/**
 * Each labelled pair's outcome: the majority of its labels a reviewer has not rejected, or the
 * choice a reviewer adjudicated (a pair adjudicated with every label rejected still counts).
 */
export function decisions(labels: LabelRow[], adjudicated: Array<{ itemId: number; choice: Choice }> = []): Decision[] {
  const byItem = new Map<number, LabelRow[]>();
  for (const l of labels) if (l.review !== "rejected") byItem.set(l.itemId, [...(byItem.get(l.itemId) ?? []), l]);
  const decided = new Map(adjudicated.map((d) => [d.itemId, d.choice]));
  for (const l of labels) if (decided.has(l.itemId) && !byItem.has(l.itemId)) byItem.set(l.itemId, []);
  const itemOf = new Map(labels.map((l) => [l.itemId, l.item]));
  return [...byItem].map(([itemId, rows]) => {
    const counts = new Map<Choice, number>();
    for (const r of rows) counts.set(r.choice, (counts.get(r.choice) ?? 0) + 1);
    const top = Math.max(0, ...counts.values());
    const leaders = [...counts].filter(([, n]) => n === top).map(([c]) => c);
    const margin = rows.reduce((sum, r) => sum + gradeValue(r), 0);
    return {
      itemId,
      labels: rows.length,
      outcome: decided.get(itemId) ?? (leaders.length === 1 ? leaders[0]! : "split"),
      margin,
      decidedBy: decided.has(itemId) ? "adjudication" : "majority",
      item: itemOf.get(itemId)!,
    };
  });
}

export interface HumanExportSummary {
  pairs: number;
  exported: number;
  tie: number;
  both_bad: number;
  split: number;
  /** Pairs whose outcome a reviewer decided (lib/label/review.ts), among those above. */
  adjudicated: number;
  /** Labels a reviewer rejected: left out of every majority. */
  rejected?: number;
}

export function summarize(list: Decision[]): HumanExportSummary {
  const count = (outcome: Decision["outcome"]) => list.filter((d) => d.outcome === outcome).length;
  return {
    pairs: list.length,
    exported: count("a") + count("b"),
    tie: count("tie"),
    both_bad: count("both_bad"),
    split: count("split"),
    adjudicated: list.filter((d) => d.decidedBy === "adjudication").length,
  };
}

/** One line per label, with the pair's sides by id, the side the person saw on the left, and the rule's or critic's pick. */
export function rawLabelLine(queue: Pick<QueueRow, "id" | "name" | "kind">, l: LabelRow): Record<string, unknown> {
  const side = (run: number, episode: number | null, candidate: number | null) => ({
    run,
    ...(episode !== null ? { episode } : {}),
    ...(candidate !== null ? { candidate } : {}),
  });
  return {
    queue: queue.name,
    kind: queue.kind,
    item: l.itemId,
    task: l.item.taskId,
    a: side(l.item.aRunId, l.item.aEpisodeId, l.item.aCandidateId),
    b: side(l.item.bRunId, l.item.bEpisodeId, l.item.bCandidateId),
    annotator: l.user,
    choice: l.choice,
    // A graded queue's strength (much | slightly) of an a/b choice; null otherwise.
    strength: l.strength,
    preference: gradeValue(l),
    ...(l.criteria ? { criteria: l.criteria } : {}),
    version: l.version,
    // A reviewer's verdict: accepted | rejected | null (not reviewed).
    review: l.review,
    left: l.leftIsA ? "a" : "b",
    comment: l.comment,
    ms: l.ms,
    source_choice: l.item.sourceChoice,
    gold: l.item.gold,
    created_at: l.createdAt.toISOString(),
  };
}

/** Training lines of the pairs people decided; the format must fit the queue's kind. */
export async function humanTrainingLines(
  store: Store,
  queue: QueueRow,
  format: TrainingFormat,
  /** template: a hub id, folder or fallback name, for runs that record none (a run's recorded template is used, and another refused). */
  options: {
    template?: string;
    withPrompt?: boolean;
    groundTruth?: boolean;
    majority?: "plain" | "weighted";
    /** Leave out the labels of members the queue's gold threshold pauses (lib/label/gold.ts). */
    excludePaused?: boolean;
  } = {},
): Promise<{ lines: Array<Record<string, unknown>>; summary: HumanExportSummary }> {
  const critic = format === "openrlhf-critic" || format === "published-frontend-critic";
  if (critic && queue.kind !== "trajectory")
    throw new Error(
      `format: ${format} is made of trajectory pairs; queue ${queue.name} holds turn pairs (use openrlhf-policy or trl-dpo)`,
    );
  if (!critic && queue.kind !== "turn")
    throw new Error(
      `format: ${format} is made of turn pairs; queue ${queue.name} holds trajectory pairs (use openrlhf-critic)`,
    );
  // Each side's strings in its run's own template, as that run's SWEET-RL exports write them.
  const templates = new Map<number, Promise<ChatTemplate>>();
  const templateOf = (runId: number) => {
    if (!templates.has(runId)) templates.set(runId, templateForRun(store, runId, options.template));
    return templates.get(runId)!;
  };
  const all = await store.labels.ofQueue(queue.id);
  const labels = options.excludePaused ? withoutPaused(queue, all) : all;
  const plain = decisions(labels, await store.labels.adjudications(queue.id));
  // The reliability-weighted majority (lib/label/weighted.ts) decides instead, where asked.
  const weighted = new Map(
    weightedDecisions(labels.filter((l) => l.review !== "rejected")).map((w) => [w.itemId, w.outcome]),
  );
  const list =
    options.majority === "weighted"
      ? plain
          .filter((d) => !d.item.gold)
          .map((d) => (d.decidedBy === "adjudication" ? d : { ...d, outcome: weighted.get(d.itemId) ?? "split" }))
      : plain;
  const decided = list.filter((d) => d.outcome === "a" || d.outcome === "b");
  const lines: Array<Record<string, unknown>> = [];
  if (critic) {
    const sides = await store.sweet.episodeSides([
      ...new Set(decided.flatMap((d) => [d.item.aEpisodeId!, d.item.bEpisodeId!])),
    ]);
    for (const d of decided) {
      const [chosen, rejected] =
        d.outcome === "a" ? [d.item.aEpisodeId!, d.item.bEpisodeId!] : [d.item.bEpisodeId!, d.item.aEpisodeId!];
      const [chosenRun, rejectedRun] =
        d.outcome === "a" ? [d.item.aRunId, d.item.bRunId] : [d.item.bRunId, d.item.aRunId];
      const c = sides.get(chosen)!;
      const r = sides.get(rejected)!;
      const side = async (s: typeof c, runId: number) => ({
        input: promptText(await templateOf(runId), s.input),
        output: s.output,
      });
      lines.push(
        criticPairLine(
          format === "openrlhf-critic" ? "strings" : "objects",
          options.groundTruth ? c.groundTruth : null,
          await side(c, chosenRun),
          await side(r, rejectedRun),
        ),
      );
    }
  } else {
    const candidates = await store.sweet.byId([
      ...new Set(decided.flatMap((d) => [d.item.aCandidateId!, d.item.bCandidateId!])),
    ]);
    for (const d of decided) {
      const [chosenId, rejectedId] =
        d.outcome === "a" ? [d.item.aCandidateId!, d.item.bCandidateId!] : [d.item.bCandidateId!, d.item.aCandidateId!];
      const chosen = candidates.get(chosenId)!;
      const rejected = candidates.get(rejectedId)!;
      // A turn pair's two candidates share the turn, so the run and its template.
      const template = await templateOf(d.outcome === "a" ? d.item.aRunId : d.item.bRunId);
      if (format === "trl-dpo") {
        lines.push(trlDpoLine(promptText(template, chosen.prompt), chosen.text, rejected.text, template.endOfTurn));
      } else {
        lines.push(
          policyPairLine(
            promptText(template, chosen.prompt),
            chosen.text,
            rejected.text,
            template.endOfTurn,
            options.withPrompt ?? false,
          ),
        );
      }
    }
  }
  return { lines, summary: { ...summarize(list), rejected: labels.filter((l) => l.review === "rejected").length } };
}
