import { PythonRandom } from "./python-random";
import { SWEET_DEFAULTS } from "./defaults";

// Turn-level pairs from candidates ranked by advantage, drawn with the calls the published
// `generate_random_pairs_from_ranks.py` makes on Python's own generator: `random.seed(seed)` once;
// per state, in file order, k times: the candidates sorted by advantage (ascending), one index from
// the lower half (`random.choice(range(n // 2))`) then one from the upper half
// (`random.choice(range(n // 2, n))`), the one with the strictly higher advantage chosen (a tie
// leaves the lower-half draw rejected); then `random.shuffle` over every pair. Same seed, same
// ranked candidates in the same order: the published file's pairs in the published order.

export interface RankedState<Id> {
  state: string | number;
  /** In the order the published sampler wrote them (its `additional_outputs`). */
  candidates: Array<{ id: Id; advantage: number }>;
}

export interface TurnPair<Id> {
  state: string | number;
  chosen: Id;
  rejected: Id;
  chosenAdvantage: number;
  rejectedAdvantage: number;
}

/**
 * The candidates' positions sorted by advantage, ascending, ties in their written order: a stable
 * order, the same on every machine. The published script's `np.argsort` is not stable (its default
 * kind dispatches to a SIMD sort where the CPU has one: numpy 2.4.6 with AVX2 reordered exact ties in
 * 196 of 2000 random arrays of 4), so where two candidates have exactly equal advantages its pairs
 * depend on the machine it ran on, and the studio's equal its output only where that sort kept the
 * tie in written order. Without exact ties the two agree everywhere.
 */
function argsort(values: number[]): number[] {
  return values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
}

export function drawTurnPairs<Id>(
  states: RankedState<Id>[],
  options: { pairsPerState?: number; seed?: number } = {},
): TurnPair<Id>[] {
  const k = options.pairsPerState ?? SWEET_DEFAULTS.pairsPerState;
  const random = new PythonRandom(options.seed ?? SWEET_DEFAULTS.seed);
  const pairs: TurnPair<Id>[] = [];
  for (const { state, candidates } of states) {
    // A candidate without an advantage cannot be placed; the published script would sort NaN last.
    const ranked = candidates.filter((c) => Number.isFinite(c.advantage));
    const n = ranked.length;
    if (n < 2) continue;
    const order = argsort(ranked.map((c) => c.advantage));
    const half = Math.floor(n / 2);
    for (let i = 0; i < k; i++) {
      const a = ranked[order[random.randbelow(half)]!]!;
      const b = ranked[order[half + random.randbelow(n - half)]!]!;
      const [chosen, rejected] = a.advantage > b.advantage ? [a, b] : [b, a];
      pairs.push({
        state,
        chosen: chosen.id,
        rejected: rejected.id,
        chosenAdvantage: chosen.advantage,
        rejectedAdvantage: rejected.advantage,
      });
    }
  }
  random.shuffle(pairs);
  return pairs;
}
