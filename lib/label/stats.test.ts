import { describe, expect, it } from "vitest";
import { coincidences, cohenKappa, fleissKappa, krippendorffAlpha, median, type Rating } from "./agreement";
import { bradleyTerryRatings, eloOf, fitBradleyTerry, type Game } from "./bradley-terry";

const ratings = (rows: Array<[item: number, rater: number, category: string]>): Rating[] =>
  rows.map(([item, rater, category]) => ({ item, rater, category }));
const labelsOf = (pairs: Array<[number, string]>) => new Map(pairs);

describe("Cohen's kappa", () => {
  it("equals the hand-computed value of a 2x2 table (20 a/a, 5 a/b, 10 b/a, 15 b/b: po 0.7, pe 0.5, kappa 0.4)", () => {
    const first: Array<[number, string]> = [];
    const second: Array<[number, string]> = [];
    let item = 0;
    for (const [a, b, count] of [
      ["a", "a", 20],
      ["a", "b", 5],
      ["b", "a", 10],
      ["b", "b", 15],
    ] as const) {
      for (let i = 0; i < count; i++, item++) {
        first.push([item, a]);
        second.push([item, b]);
      }
    }
    const { kappa, shared, observed } = cohenKappa(labelsOf(first), labelsOf(second));
    expect(shared).toBe(50);
    expect(observed).toBeCloseTo(0.7, 12);
    expect(kappa).toBeCloseTo(0.4, 12);
  });

  it("counts only the items both labelled; perfect agreement with variation is 1", () => {
    const { kappa, shared } = cohenKappa(
      labelsOf([
        [1, "a"],
        [2, "b"],
        [3, "tie"],
        [9, "a"],
      ]),
      labelsOf([
        [1, "a"],
        [2, "b"],
        [3, "tie"],
        [8, "b"],
      ]),
    );
    expect(shared).toBe(3);
    expect(kappa).toBeCloseTo(1, 12);
  });

  it("is undefined (null) with no shared item, and when both put every label in one category", () => {
    expect(cohenKappa(labelsOf([[1, "a"]]), labelsOf([[2, "a"]]))).toEqual({ kappa: null, shared: 0, observed: null });
    const same = cohenKappa(
      labelsOf([
        [1, "a"],
        [2, "a"],
      ]),
      labelsOf([
        [1, "a"],
        [2, "a"],
      ]),
    );
    expect(same.kappa).toBeNull();
    expect(same.observed).toBe(1);
  });
});

// Three pairs, three raters: (a, a, a), (a, a, b), (b, b, tie).
const three = ratings([
  [1, 1, "a"],
  [1, 2, "a"],
  [1, 3, "a"],
  [2, 1, "a"],
  [2, 2, "a"],
  [2, 3, "b"],
  [3, 1, "b"],
  [3, 2, "b"],
  [3, 3, "tie"],
]);

describe("Fleiss' kappa", () => {
  it("equals the hand-computed value: P = (1 + 1/3 + 1/3) / 3 = 5/9, Pe = (25 + 9 + 1) / 81, kappa = 10/46", () => {
    expect(fleissKappa(three)).toBeCloseTo(10 / 46, 12);
  });

  it("uses the items labelled at least twice, however many labels each has", () => {
    // Adding a pair labelled once changes nothing.
    expect(fleissKappa([...three, { item: 4, rater: 1, category: "both_bad" }])).toBeCloseTo(10 / 46, 12);
  });

  it("is undefined with one annotator, with no pair labelled twice, and with every label in one category", () => {
    expect(
      fleissKappa(
        ratings([
          [1, 1, "a"],
          [2, 1, "b"],
        ]),
      ),
    ).toBeNull();
    expect(
      fleissKappa(
        ratings([
          [1, 1, "a"],
          [2, 2, "b"],
        ]),
      ),
    ).toBeNull();
    expect(
      fleissKappa(
        ratings([
          [1, 1, "a"],
          [1, 2, "a"],
          [2, 1, "a"],
          [2, 2, "a"],
        ]),
      ),
    ).toBeNull();
    expect(fleissKappa([])).toBeNull();
  });
});

describe("Krippendorff's alpha (nominal)", () => {
  it("equals the hand-computed value: coincidences aa 4, ab = ba = 1, bb 1, b-tie = tie-b = 1; alpha = 1 - 8 * 4 / 46", () => {
    const { categories, matrix } = coincidences(three, ["a", "b", "tie", "both_bad"]);
    expect(categories).toEqual(["a", "b", "tie", "both_bad"]);
    expect(matrix).toEqual([
      [4, 1, 0, 0],
      [1, 1, 1, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(krippendorffAlpha(three)).toBeCloseTo(14 / 46, 12);
  });

  it("is 1 for perfect agreement with variation, and undefined for degenerate tables", () => {
    expect(
      krippendorffAlpha(
        ratings([
          [1, 1, "a"],
          [1, 2, "a"],
          [2, 1, "b"],
          [2, 2, "b"],
        ]),
      ),
    ).toBeCloseTo(1, 12);
    expect(
      krippendorffAlpha(
        ratings([
          [1, 1, "a"],
          [1, 2, "a"],
          [2, 1, "a"],
          [2, 2, "a"],
        ]),
      ),
    ).toBeNull();
    expect(
      krippendorffAlpha(
        ratings([
          [1, 1, "a"],
          [2, 1, "b"],
        ]),
      ),
    ).toBeNull();
    expect(
      krippendorffAlpha(
        ratings([
          [1, 1, "a"],
          [2, 2, "b"],
        ]),
      ),
    ).toBeNull();
  });
});

describe("median", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

const games = (rows: Array<[string, string, number, number]>): Game<string>[] =>
  rows.flatMap(([a, b, aWins, bWins]) => [
    ...Array.from({ length: aWins }, () => ({ a, b, score: 1 })),
    ...Array.from({ length: bWins }, () => ({ a, b, score: 0 })),
  ]);

describe("Bradley-Terry", () => {
  it("two players, 3 wins to 1: strengths 3:1, Elo 1000 +/- 200 log10(3)", () => {
    const p = fitBradleyTerry(games([["A", "B", 3, 1]]), { prior: 0 });
    expect(p.get("A")! / p.get("B")!).toBeCloseTo(3, 9);
    expect(eloOf(p.get("A")!)).toBeCloseTo(1000 + 200 * Math.log10(3), 6);
    expect(eloOf(p.get("B")!)).toBeCloseTo(1000 - 200 * Math.log10(3), 6);
  });

  it("a tie is half a win each; the prior adds one virtual tie per pair that met (3.5 : 1.5)", () => {
    const tied = fitBradleyTerry([...games([["A", "B", 1, 0]]), { a: "A", b: "B", score: 0.5 }], { prior: 0 });
    expect(tied.get("A")! / tied.get("B")!).toBeCloseTo(3, 9);
    const withPrior = fitBradleyTerry(games([["A", "B", 3, 1]]), { prior: 1 });
    expect(withPrior.get("A")! / withPrior.get("B")!).toBeCloseTo(3.5 / 1.5, 9);
  });

  it("a chain A-B (2:1), B-C (2:1): strengths 4:2:1, Elo 1000 + 400 log10 of 2, 1, 1/2", () => {
    const p = fitBradleyTerry(
      games([
        ["A", "B", 2, 1],
        ["B", "C", 2, 1],
      ]),
      { prior: 0 },
    );
    expect(eloOf(p.get("A")!)).toBeCloseTo(1000 + 400 * Math.log10(2), 6);
    expect(eloOf(p.get("B")!)).toBeCloseTo(1000, 6);
    expect(eloOf(p.get("C")!)).toBeCloseTo(1000 - 400 * Math.log10(2), 6);
  });

  it("a cycle of single wins rates everyone equal; the fit meets the likelihood equations on a dense table", () => {
    const cycle = fitBradleyTerry(
      games([
        ["A", "B", 1, 0],
        ["B", "C", 1, 0],
        ["C", "A", 1, 0],
      ]),
      { prior: 0 },
    );
    for (const s of cycle.values()) expect(s).toBeCloseTo(1, 9);
    const table: Array<[string, string, number, number]> = [
      ["A", "B", 5, 2],
      ["A", "C", 4, 4],
      ["B", "C", 1, 6],
      ["A", "D", 7, 1],
      ["C", "D", 3, 2],
    ];
    const p = fitBradleyTerry(games(table), { prior: 0 });
    // For every player: wins = sum over opponents of games * p_i / (p_i + p_j).
    for (const player of ["A", "B", "C", "D"]) {
      let wins = 0;
      let expected = 0;
      for (const [a, b, wa, wb] of table) {
        if (a !== player && b !== player) continue;
        const other = a === player ? b : a;
        wins += a === player ? wa : wb;
        expected += ((wa + wb) * p.get(player)!) / (p.get(player)! + p.get(other)!);
      }
      expect(expected).toBeCloseTo(wins, 6);
    }
  });

  it("a player who never wins gets a finite rating with the prior; intervals hold the estimate and are seeded", () => {
    const rows = games([
      ["A", "B", 6, 0],
      ["B", "C", 4, 2],
    ]);
    const ratings = bradleyTerryRatings(rows, { rounds: 100, seed: 3 });
    expect(ratings.map((r) => r.player)).toEqual(["A", "B", "C"]);
    for (const r of ratings) {
      expect(Number.isFinite(r.rating)).toBe(true);
      expect(r.low!).toBeLessThanOrEqual(r.rating + 1e-9);
      expect(r.high!).toBeGreaterThanOrEqual(r.rating - 1e-9);
    }
    expect(ratings.find((r) => r.player === "B")!.games).toBe(12);
    expect(bradleyTerryRatings(rows, { rounds: 100, seed: 3 })).toEqual(ratings);
    expect(bradleyTerryRatings([], {})).toEqual([]);
  });
});
