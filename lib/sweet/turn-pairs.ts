import { uniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

// Turn-level pairs from candidates ranked by advantage: per state, k draws with replacement of one
// candidate from the upper half and one from the lower half of the sorted list, the higher
// advantage chosen; every pair shuffled together. Seeded, so the same seed gives the same file.

export interface RankedState<Id> {
  state: string | number;
  candidates: Array<{ id: Id; advantage: number }>;
}

export interface TurnPair<Id> {
  state: string | number;
  chosen: Id;
  rejected: Id;
  chosenAdvantage: number;
  rejectedAdvantage: number;
}

class Rng {
  private generator: RandomGenerator;
  constructor(seed: number) {
    this.generator = xoroshiro128plus(seed);
  }
  /** An integer in [0, n). */
  below(n: number): number {
    const [value, next] = uniformIntDistribution(0, n - 1, this.generator);
    this.generator = next;
    return value;
  }
}

export function drawTurnPairs<Id>(states: RankedState<Id>[], options: { pairsPerState?: number; seed?: number } = {}): TurnPair<Id>[] {
  const k = options.pairsPerState ?? 4;
  const rng = new Rng(options.seed ?? 42);
  const pairs: TurnPair<Id>[] = [];
  for (const { state, candidates } of states) {
    const ranked = candidates.filter((c) => Number.isFinite(c.advantage)).sort((a, b) => a.advantage - b.advantage);
    const n = ranked.length;
    if (n < 2) continue;
    const half = Math.floor(n / 2);
    for (let i = 0; i < k; i++) {
      const a = ranked[rng.below(half)]!;
      const b = ranked[half + rng.below(n - half)]!;
      // Ties leave the lower-half draw rejected, as the published rule does (strictly greater chosen).
      const [chosen, rejected] = a.advantage > b.advantage ? [a, b] : [b, a];
      pairs.push({ state, chosen: chosen.id, rejected: rejected.id, chosenAdvantage: chosen.advantage, rejectedAdvantage: rejected.advantage });
    }
  }
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
  }
  return pairs;
}
