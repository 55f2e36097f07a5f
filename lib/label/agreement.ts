// Agreement between people labelling the same pairs, over nominal categories. Each statistic is
// null where it is undefined: no pair labelled twice, or every label in one category (the
// agreement expected by chance is then 1 and the ratio is 0/0).

export interface Rating<C extends string = string> {
  item: number;
  rater: number;
  category: C;
}

const byItem = <C extends string>(ratings: Rating<C>[]) => {
  const items = new Map<number, Map<C, number>>();
  for (const r of ratings) {
    const counts = items.get(r.item) ?? new Map<C, number>();
    counts.set(r.category, (counts.get(r.category) ?? 0) + 1);
    items.set(r.item, counts);
  }
  return items;
};

/** Cohen's kappa of two raters over the items both rated: (po - pe) / (1 - pe). */
export function cohenKappa<C extends string>(
  first: Map<number, C>,
  second: Map<number, C>,
): { kappa: number | null; shared: number; observed: number | null } {
  const shared = [...first.keys()].filter((item) => second.has(item));
  const n = shared.length;
  if (!n) return { kappa: null, shared: 0, observed: null };
  const one = new Map<C, number>();
  const two = new Map<C, number>();
  let agree = 0;
  for (const item of shared) {
    const a = first.get(item)!;
    const b = second.get(item)!;
    if (a === b) agree++;
    one.set(a, (one.get(a) ?? 0) + 1);
    two.set(b, (two.get(b) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [category, count] of one) pe += (count / n) * ((two.get(category) ?? 0) / n);
  return { kappa: pe >= 1 - 1e-12 ? null : (po - pe) / (1 - pe), shared: n, observed: po };
}

/**
 * Fleiss' kappa over items rated at least twice, with as many ratings per item as there are
 * (the usual extension to unequal counts): P_i = sum n_ic(n_ic - 1) / (n_i(n_i - 1)), P = mean P_i,
 * p_c = share of all those ratings in c, Pe = sum p_c^2, kappa = (P - Pe) / (1 - Pe).
 */
export function fleissKappa<C extends string>(ratings: Rating<C>[]): number | null {
  const items = [...byItem(ratings).values()].filter((counts) => sum([...counts.values()]) >= 2);
  if (!items.length) return null;
  let agreement = 0;
  const totals = new Map<C, number>();
  let all = 0;
  for (const counts of items) {
    const n = sum([...counts.values()]);
    let same = 0;
    for (const [category, k] of counts) {
      same += k * (k - 1);
      totals.set(category, (totals.get(category) ?? 0) + k);
    }
    agreement += same / (n * (n - 1));
    all += n;
  }
  const observed = agreement / items.length;
  const expected = sum([...totals.values()].map((k) => (k / all) ** 2));
  return expected >= 1 - 1e-12 ? null : (observed - expected) / (1 - expected);
}

/**
 * Krippendorff's alpha for nominal data: from the coincidence matrix o_ck = sum over items of
 * n_c (n_k - [c = k]) / (m - 1) (items with m >= 2 ratings), alpha = 1 - (n - 1) D / E where D is
 * the matrix's off-diagonal sum and E = sum over c != k of n_c n_k.
 */
export function krippendorffAlpha<C extends string>(ratings: Rating<C>[]): number | null {
  const { matrix, categories } = coincidences(ratings);
  const marginals = categories.map((_, c) => sum(matrix[c]!));
  const n = sum(marginals);
  if (n < 2) return null;
  let disagreement = 0;
  let expected = 0;
  for (let c = 0; c < categories.length; c++) {
    for (let k = 0; k < categories.length; k++) {
      if (c === k) continue;
      disagreement += matrix[c]![k]!;
      expected += marginals[c]! * marginals[k]!;
    }
  }
  return expected === 0 ? null : 1 - ((n - 1) * disagreement) / expected;
}

/** The coincidence matrix of items rated at least twice (rows and columns in first-seen category order unless given). */
export function coincidences<C extends string>(
  ratings: Rating<C>[],
  order?: readonly C[],
): { categories: C[]; matrix: number[][] } {
  const items = [...byItem(ratings).values()].filter((counts) => sum([...counts.values()]) >= 2);
  const categories: C[] = order ? [...order] : [];
  for (const counts of items) for (const c of counts.keys()) if (!categories.includes(c)) categories.push(c);
  const at = new Map(categories.map((c, i) => [c, i]));
  const matrix = categories.map(() => categories.map(() => 0));
  for (const counts of items) {
    const m = sum([...counts.values()]);
    for (const [c, nc] of counts)
      for (const [k, nk] of counts) matrix[at.get(c)!]![at.get(k)!]! += (nc * (nk - (c === k ? 1 : 0))) / (m - 1);
  }
  return { categories, matrix };
}

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
