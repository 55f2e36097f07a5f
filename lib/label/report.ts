import type { Choice } from "../store/queues";
import type { LabelRow } from "../store/labels";
import { coincidences, cohenKappa, fleissKappa, krippendorffAlpha, median, type Rating } from "./agreement";
import { FEW_SHARED, meanKappas, type PersonKappa } from "./pairwise";
import { toCsv } from "../table/csv";

// A queue's agreement and quality report, from its labels: what the agreement page charts and
// `colbench labels agreement` / GET /api/queues/ID/agreement export as JSON.

export const CATEGORIES: readonly Choice[] = ["a", "b", "tie", "both_bad"];

export interface AnnotatorReport {
  userId: number;
  name: string;
  labels: number;
  medianMs: number | null;
  /** Gold pairs labelled and answered as known. */
  gold: { labelled: number; correct: number; accuracy: number | null };
  /** Labels on pairs whose rule, critic or score preferred a side: how often this person picked it. */
  source: { labelled: number; agree: number; rate: number | null };
  choices: Record<Choice, number>;
}

export interface AgreementReport {
  labels: number;
  items: number;
  /** Pairs labelled by two people or more. */
  overlapping: number;
  annotators: AnnotatorReport[];
  cohen: Array<{ a: string; b: string; shared: number; kappa: number | null; observed: number | null }>;
  /** Each person's mean Cohen's kappa over the people they share pairs with (lib/label/pairwise.ts), in annotators' order. */
  meanKappa: PersonKappa[];
  fleiss: number | null;
  alpha: number | null;
  /** Humans against the rule, critic or benchmark score that made each pair. */
  source: { labelled: number; agree: number; rate: number | null; kappa: number | null };
  /** Coincidences between people labelling the same pair (Krippendorff's), rows and columns in CATEGORIES order. */
  coincidence: number[][];
  /** Rows: what the source said (a, b, tie); columns: what people said (CATEGORIES). */
  versusSource: { rows: Choice[]; matrix: number[][] };
}

const ratio = (k: number, n: number) => (n ? k / n : null);
const emptyChoices = (): Record<Choice, number> => ({ a: 0, b: 0, tie: 0, both_bad: 0 });

export function agreementReport(labels: LabelRow[]): AgreementReport {
  const people = new Map<number, { name: string; rows: LabelRow[] }>();
  for (const l of labels) {
    const entry = people.get(l.userId) ?? { name: l.user, rows: [] };
    entry.rows.push(l);
    people.set(l.userId, entry);
  }
  const annotators: AnnotatorReport[] = [...people].map(([userId, { name, rows }]) => {
    const gold = rows.filter((r) => r.item.gold);
    const sourced = rows.filter((r) => r.item.sourceChoice === "a" || r.item.sourceChoice === "b");
    const choices = emptyChoices();
    for (const r of rows) choices[r.choice]++;
    const correct = gold.filter((r) => r.choice === r.item.gold).length;
    const agree = sourced.filter((r) => r.choice === r.item.sourceChoice).length;
    return {
      userId,
      name,
      labels: rows.length,
      medianMs: median(rows.map((r) => r.ms)),
      gold: { labelled: gold.length, correct, accuracy: ratio(correct, gold.length) },
      source: { labelled: sourced.length, agree, rate: ratio(agree, sourced.length) },
      choices,
    };
  });

  const byPerson = new Map([...people].map(([id, { rows }]) => [id, new Map(rows.map((r) => [r.itemId, r.choice]))]));
  const ids = [...people.keys()];
  const cohen: AgreementReport["cohen"] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const result = cohenKappa(byPerson.get(ids[i]!)!, byPerson.get(ids[j]!)!);
      if (result.shared) cohen.push({ a: people.get(ids[i]!)!.name, b: people.get(ids[j]!)!.name, ...result });
    }
  }

  const ratings: Rating<Choice>[] = labels.map((l) => ({ item: l.itemId, rater: l.userId, category: l.choice }));
  const perItem = new Map<number, number>();
  for (const l of labels) perItem.set(l.itemId, (perItem.get(l.itemId) ?? 0) + 1);

  // The source as one more rater, against each person's label of the pairs it scored.
  const sourced = labels.filter((l) => l.item.sourceChoice);
  const sourceLabels = new Map<number, Choice>();
  const humanLabels = new Map<number, Choice>();
  sourced.forEach((l, i) => {
    sourceLabels.set(i, l.item.sourceChoice!);
    humanLabels.set(i, l.choice);
  });
  const decided = sourced.filter((l) => l.item.sourceChoice !== "tie");
  const agree = decided.filter((l) => l.choice === l.item.sourceChoice).length;
  const rows: Choice[] = ["a", "b", "tie"];
  const versus = rows.map(() => CATEGORIES.map(() => 0));
  for (const l of sourced) versus[rows.indexOf(l.item.sourceChoice!)]![CATEGORIES.indexOf(l.choice)]!++;

  annotators.sort((x, y) => y.labels - x.labels || x.name.localeCompare(y.name));
  return {
    labels: labels.length,
    items: perItem.size,
    overlapping: [...perItem.values()].filter((n) => n >= 2).length,
    annotators,
    cohen,
    meanKappa: meanKappas(
      annotators.map((a) => a.name),
      cohen,
    ),
    fleiss: fleissKappa(ratings),
    alpha: krippendorffAlpha(ratings),
    source: {
      labelled: decided.length,
      agree,
      rate: ratio(agree, decided.length),
      kappa: cohenKappa(sourceLabels, humanLabels).kappa,
    },
    coincidence: coincidences(ratings, CATEGORIES).matrix,
    versusSource: { rows, matrix: versus },
  };
}

/** The report's pairwise Cohen's kappas as CSV: one row per two people who share pairs. */
export function cohenCsv(report: AgreementReport): string {
  return toCsv([
    ["a", "b", "shared", "observed", "kappa", "few"],
    ...report.cohen.map((c) => [c.a, c.b, c.shared, c.observed, c.kappa, c.shared < FEW_SHARED]),
  ]);
}
