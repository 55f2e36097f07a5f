import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PythonRandom } from "./python-random";
import { drawTurnPairs } from "./turn-pairs";

// Expected values were produced once with CPython (fixtures/python-random/make_expected.py).
const dir = new URL("./fixtures/python-random/", import.meta.url);
const ranked = JSON.parse(readFileSync(new URL("ranked.json", dir), "utf8")) as Array<{
  state: string;
  advantages: number[];
}>;
const expected = JSON.parse(readFileSync(new URL("expected.json", dir), "utf8")) as {
  pairsPerState: number;
  seeds: Record<
    string,
    {
      pairs: Array<[string, number, number]>;
      generator: { random: number[]; getrandbits: number[]; randbelow: number[]; sample: number[] };
    }
  >;
};

describe("Python's random, as random.seed(int) leaves it", () => {
  for (const [seed, facts] of Object.entries(expected.seeds)) {
    it(`seed ${seed}: random(), getrandbits, _randbelow and sample give CPython's numbers`, () => {
      const random = new PythonRandom(BigInt(seed));
      expect(Array.from({ length: 5 }, () => random.random())).toEqual(facts.generator.random);
      expect([1, 4, 7, 31, 32].map((k) => random.getrandbits(k))).toEqual(facts.generator.getrandbits);
      expect([1, 3, 8, 9, 1000].map((n) => random.randbelow(n))).toEqual(facts.generator.randbelow);
      const range = (n: number) => Array.from({ length: n }, (_, i) => i);
      expect([...random.sample(range(16), 2), ...random.sample(range(100), 7)]).toEqual(facts.generator.sample);
    });
  }

  it("a negative seed seeds as its absolute value; 0 and 2**32 differ (one word against two)", () => {
    expect(new PythonRandom(-42).random()).toBe(new PythonRandom(42).random());
    expect(new PythonRandom(0).random()).not.toBe(new PythonRandom(2 ** 32).random());
  });
});

describe("turn pairs drawn as generate_random_pairs_from_ranks.py draws them", () => {
  for (const [seed, facts] of Object.entries(expected.seeds)) {
    it(`seed ${seed}: the published pairs in the published order`, () => {
      const states = ranked.map((s) => ({
        state: s.state,
        candidates: s.advantages.map((advantage, id) => ({ id, advantage })),
      }));
      const pairs = drawTurnPairs(states, { pairsPerState: expected.pairsPerState, seed: Number(seed) });
      expect(pairs.map((p) => [p.state, p.chosen, p.rejected])).toEqual(facts.pairs);
    });
  }
});
