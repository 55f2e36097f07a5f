import { uniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

/** A seeded generator: the same seed gives the same queue order, sides and bootstrap intervals. */
export class Rng {
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
  coin(): boolean {
    return this.below(2) === 1;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}
