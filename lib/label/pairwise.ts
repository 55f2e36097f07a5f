// Pairwise agreement read person by person: the square table of Cohen's kappas the agreement page
// draws as a heatmap, and each person's mean kappa over the people they share pairs with. Both are
// read from the report's `cohen` rows, so they hold exactly the kappas the report computed.

import type { AgreementReport } from "./report";

/**
 * Below this many shared pairs a pairwise kappa is marked as unsure. Why 10: kappa's standard
 * error is about sqrt(po (1 - po) / n) / (1 - pe); at n = 10 with po = 0.8 and pe = 0.5 that is
 * 0.25, so a 95% interval spans about ±0.5: from "fair" to "almost perfect" agreement. Under 10 the
 * figure says little about the two people, and one pair more can move it by 0.2 or more.
 */
export const FEW_SHARED = 10;

export interface KappaCell {
  kappa: number | null;
  observed: number | null;
  shared: number;
  few: boolean;
}

export interface PersonKappa {
  name: string;
  /** Mean of this person's kappas with each person they share pairs with (defined kappas only). */
  mean: number | null;
  /** How many people that mean is over. */
  partners: number;
  /** Of those, how many share fewer than FEW_SHARED pairs with this person. */
  few: number;
  /** People they share pairs with whose kappa is undefined (every shared label in one category). */
  undefinedWith: number;
}

/** Cohen's kappa of every two people, both ways round, by name; absent where they share no pair. */
export function kappaMatrix(cohen: AgreementReport["cohen"]): Map<string, Map<string, KappaCell>> {
  const matrix = new Map<string, Map<string, KappaCell>>();
  const put = (a: string, b: string, cell: KappaCell) => {
    const row = matrix.get(a) ?? new Map<string, KappaCell>();
    row.set(b, cell);
    matrix.set(a, row);
  };
  for (const c of cohen) {
    const cell = { kappa: c.kappa, observed: c.observed, shared: c.shared, few: c.shared < FEW_SHARED };
    put(c.a, c.b, cell);
    put(c.b, c.a, cell);
  }
  return matrix;
}

/** Each of `names`' mean pairwise kappa, in the order given. */
export function meanKappas(names: readonly string[], cohen: AgreementReport["cohen"]): PersonKappa[] {
  const matrix = kappaMatrix(cohen);
  return names.map((name) => {
    const cells = [...(matrix.get(name)?.values() ?? [])];
    const defined = cells.filter((c) => c.kappa !== null);
    return {
      name,
      mean: defined.length ? defined.reduce((sum, c) => sum + c.kappa!, 0) / defined.length : null,
      partners: defined.length,
      few: defined.filter((c) => c.few).length,
      undefinedWith: cells.length - defined.length,
    };
  });
}
