import { describe, expect, it } from "vitest";
import type { LabelRow } from "../store/labels";
import type { Choice } from "../store/queues";
import { FEW_SHARED, kappaMatrix, meanKappas } from "./pairwise";
import { agreementReport, cohenCsv } from "./report";

// The per-person mean kappa and the heatmap's square, against kappas worked out by hand.

const people: Record<string, number> = { ann: 1, bob: 2, cat: 3, dan: 4 };

/** Labels as the store returns them: `said[name]` lists that person's choices of items 1, 2, … in order. */
function labelsOf(said: Record<string, Array<[number, Choice]>>): LabelRow[] {
  let id = 0;
  return Object.entries(said).flatMap(([name, choices]) =>
    choices.map(([itemId, choice]) => ({
      id: ++id,
      itemId,
      userId: people[name]!,
      user: name,
      choice,
      leftIsA: true,
      comment: null,
      ms: 1000,
      strength: null,
      criteria: null,
      version: 1,
      review: null,
      reviewNote: null,
      createdAt: new Date(0),
      item: {
        ordinal: itemId,
        taskId: 1,
        aRunId: 1,
        bRunId: 2,
        aEpisodeId: null,
        bEpisodeId: null,
        aCandidateId: null,
        bCandidateId: null,
        sourceChoice: null,
        gold: null,
        params: null,
      },
    })),
  );
}

// Items 1-4:  ann a a b b · bob a b b b · cat a b a b; item 5: ann and dan both a.
// ann-bob: agree 3/4, marginals a2b2 / a1b3: pe = 2/4·1/4 + 2/4·3/4 = 1/2, kappa = (3/4 - 1/2)/(1/2) = 1/2.
// ann-cat: agree 2/4 (items 1, 4), a2b2 / a2b2: pe = 1/2, kappa = 0.
// bob-cat: agree 3/4 (items 1, 2, 4), a1b3 / a2b2: pe = 1/8 + 3/8 = 1/2, kappa = 1/2.
// ann-dan: item 5 alone, both a: pe = 1, kappa undefined.
// Means: ann (1/2 + 0)/2 = 1/4, bob (1/2 + 1/2)/2 = 1/2, cat (0 + 1/2)/2 = 1/4, dan none.
const labels = labelsOf({
  ann: [
    [1, "a"],
    [2, "a"],
    [3, "b"],
    [4, "b"],
    [5, "a"],
  ],
  bob: [
    [1, "a"],
    [2, "b"],
    [3, "b"],
    [4, "b"],
  ],
  cat: [
    [1, "a"],
    [2, "b"],
    [3, "a"],
    [4, "b"],
  ],
  dan: [[5, "a"]],
});

describe("mean pairwise kappa", () => {
  it("is each person's mean over the people they share pairs with, as worked out by hand", () => {
    const report = agreementReport(labels);
    const kappa = (a: string, b: string) => report.cohen.find((c) => c.a === a && c.b === b)?.kappa;
    expect(kappa("ann", "bob")).toBeCloseTo(0.5, 12);
    expect(kappa("ann", "cat")).toBeCloseTo(0, 12);
    expect(kappa("bob", "cat")).toBeCloseTo(0.5, 12);
    expect(kappa("ann", "dan")).toBeNull();
    const byName = new Map(report.meanKappa.map((m) => [m.name, m]));
    expect(byName.get("ann")!.mean).toBeCloseTo(0.25, 12);
    expect(byName.get("bob")!.mean).toBeCloseTo(0.5, 12);
    expect(byName.get("cat")!.mean).toBeCloseTo(0.25, 12);
    expect(byName.get("dan")).toEqual({ name: "dan", mean: null, partners: 0, few: 0, undefinedWith: 1 });
    // ann's mean is over two people (bob, cat); dan's undefined kappa is counted apart, not as 0.
    expect(byName.get("ann")).toMatchObject({ partners: 2, undefinedWith: 1, few: 2 });
    expect(byName.get("bob")).toMatchObject({ partners: 2, undefinedWith: 0, few: 2 });
    // In the annotators' order (most labels first, then by name).
    expect(report.meanKappa.map((m) => m.name)).toEqual(report.annotators.map((a) => a.name));
  });

  it("reads the same kappas both ways round; marks fewer than FEW_SHARED shared pairs as few", () => {
    const cohen = [
      { a: "x", b: "y", shared: FEW_SHARED, kappa: 0.8, observed: 0.9 },
      { a: "x", b: "z", shared: FEW_SHARED - 1, kappa: -0.2, observed: 0.4 },
    ];
    const matrix = kappaMatrix(cohen);
    expect(matrix.get("y")!.get("x")).toEqual(matrix.get("x")!.get("y"));
    expect(matrix.get("x")!.get("y")!.few).toBe(false);
    expect(matrix.get("z")!.get("x")!.few).toBe(true);
    expect(matrix.get("y")!.has("z")).toBe(false);
    const [x, y, z] = meanKappas(["x", "y", "z"], cohen);
    expect(x!.mean).toBeCloseTo(0.3, 12);
    expect(x).toMatchObject({ partners: 2, few: 1 });
    expect(y).toMatchObject({ mean: 0.8, partners: 1, few: 0 });
    expect(z).toMatchObject({ mean: -0.2, partners: 1, few: 1 });
  });

  it("leaves the report's own statistics as they were, and exports the pairwise rows as CSV", () => {
    const report = agreementReport(labels);
    expect(report.cohen).toHaveLength(4);
    expect(report.labels).toBe(14);
    const csv = cohenCsv(report).split("\r\n");
    expect(csv[0]).toBe("a,b,shared,observed,kappa,few");
    expect(csv).toContain("ann,bob,4,0.75,0.5,true");
    expect(csv).toContain("ann,dan,1,1,,true");
  });
});
