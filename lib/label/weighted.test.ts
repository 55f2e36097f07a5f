import { describe, expect, it } from "vitest";
import type { LabelRow } from "../store/labels";
import type { Choice } from "../store/queues";
import { reliabilities, weightedDecisions } from "./weighted";

// The weighted majority against sums done by hand.

const row = (userId: number, itemId: number, choice: Choice, gold: Choice | null = null): LabelRow =>
  ({
    id: 0,
    itemId,
    userId,
    user: `p${userId}`,
    choice,
    leftIsA: true,
    comment: null,
    ms: 1,
    strength: null,
    criteria: null,
    version: 1,
    createdAt: new Date(0),
    item: { gold },
  }) as unknown as LabelRow;

describe("reliability-weighted majority", () => {
  // Gold: person 1 gets 3 of 3 right, person 2 gets 0 of 2, person 3 labelled no gold.
  const gold = [
    row(1, 100, "a", "a"),
    row(1, 101, "b", "b"),
    row(1, 102, "a", "a"),
    row(2, 100, "b", "a"),
    row(2, 101, "a", "b"),
  ];
  it("reliability is gold accuracy with one right and one wrong added", () => {
    const r = reliabilities([...gold, row(3, 1, "a")]);
    expect(r.get(1)).toBeCloseTo(4 / 5, 15);
    expect(r.get(2)).toBeCloseTo(1 / 4, 15);
    expect(r.get(3)).toBeCloseTo(1 / 2, 15);
  });
  it("one reliable person outweighs two unreliable ones; the plain majority would not", () => {
    // Item 1: person 1 says b (0.8); persons 2 and 2' say a... person 2 (0.25) and person 3 (0.5) say a: 0.75 < 0.8.
    // Item 2: person 2 says a (0.25), person 3 says b (0.5): b. Item 3: person 1 tie (0.8), person 3 tie (0.5): tie.
    const labels = [
      ...gold,
      row(1, 1, "b"),
      row(2, 1, "a"),
      row(3, 1, "a"),
      row(2, 2, "a"),
      row(3, 2, "b"),
      row(1, 3, "tie"),
      row(3, 3, "tie"),
    ];
    const byItem = new Map(weightedDecisions(labels).map((d) => [d.itemId, d]));
    expect([...byItem.keys()].sort()).toEqual([1, 2, 3]);
    expect(byItem.get(1)!.outcome).toBe("b");
    expect(byItem.get(1)!.weights.a).toBeCloseTo(1 / 4 + 1 / 2, 15);
    expect(byItem.get(1)!.weights.b).toBeCloseTo(4 / 5, 15);
    expect(byItem.get(2)!.outcome).toBe("b");
    expect(byItem.get(3)).toMatchObject({ outcome: "tie" });
  });
  it("equal sums are a split", () => {
    const labels = [row(1, 1, "a"), row(2, 1, "b")];
    expect(weightedDecisions(labels)).toEqual([{ itemId: 1, outcome: "split", weights: { a: 0.5, b: 0.5 } }]);
  });
});
