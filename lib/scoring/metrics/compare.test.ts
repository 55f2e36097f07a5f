import { describe, expect, it } from "vitest";
import { winRate } from "./compare";

const s = (taskKey: string, reward: number) => ({ taskKey, reward });

describe("winRate", () => {
  it("counts wins, splits ties, averages a run's samples of one task", () => {
    const r = winRate(
      [s("a", 1), s("a", 0), s("b", 0.4), s("c", 0.9)],
      [s("a", 0.5), s("b", 0.6), s("c", 0.1), s("d", 1)],
    );
    expect(r).toMatchObject({ n: 3, wins: 1, ties: 1, losses: 1, win_rate: 0.5, only_in_a: 0, only_in_b: 1 });
  });

  it("gives a degenerate interval when every task goes one way, and a wide one for few tasks", () => {
    const all = winRate([s("a", 1), s("b", 1), s("c", 1)], [s("a", 0), s("b", 0), s("c", 0)]);
    expect([all.win_rate, all.ci_low, all.ci_high]).toEqual([1, 1, 1]);
    const mixed = winRate([s("a", 1), s("b", 0)], [s("a", 0), s("b", 1)]);
    expect(mixed.ci_low).toBe(0);
    expect(mixed.ci_high).toBe(1);
  });

  it("narrows with more tasks", () => {
    const many = Array.from({ length: 400 }, (_, i) => i);
    const r = winRate(
      many.map((i) => s(`t${i}`, i % 4 === 0 ? 0 : 1)),
      many.map((i) => s(`t${i}`, 0.5)),
    );
    expect(r.win_rate).toBe(0.75);
    expect(r.ci_high - r.ci_low).toBeLessThan(0.1);
    expect(r.ci_low).toBeLessThan(0.75);
    expect(r.ci_high).toBeGreaterThan(0.75);
  });
});
