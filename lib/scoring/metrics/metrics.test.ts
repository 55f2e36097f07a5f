import { describe, expect, it } from "vitest";
import { averageCorrectness, bestOfK, groupBy, successRate, summarizeRewards } from "./metrics";

describe("backend metrics", () => {
  it("averages rewards and counts full passes", () => {
    expect(averageCorrectness([1, 0.5, 0])).toBeCloseTo(0.5);
    expect(successRate([1, 0.5, 1, 0])).toBe(0.5);
    expect(averageCorrectness([])).toBe(0);
    expect(successRate([])).toBe(0);
  });

  it("takes each task's best sample, then averages over tasks", () => {
    const groups = [[0.2, 1, 0.5], [0, 0.4], [0.7]];
    const all = bestOfK(groups);
    expect(all.bestOfK).toBeCloseTo((1 + 0.4 + 0.7) / 3);
    expect(all.bestOfKSuccess).toBeCloseTo(1 / 3);
    // Only the first k samples of a task count.
    const first = bestOfK(groups, 1);
    expect(first.bestOfK).toBeCloseTo((0.2 + 0 + 0.7) / 3);
    expect(first.bestOfKSuccess).toBe(0);
  });

  it("groups by key in order of first appearance", () => {
    expect(groupBy(["a1", "b1", "a2", "c1", "b2"], (s) => s[0]!)).toEqual([["a1", "a2"], ["b1", "b2"], ["c1"]]);
  });

  it("summarizes samples of repeated tasks", () => {
    const summary = summarizeRewards([
      { task: "t1", reward: 0.5 },
      { task: "t2", reward: 1 },
      { task: "t1", reward: 1 },
      { task: "t3", reward: 0 },
    ]);
    expect(summary).toEqual({
      n: 4,
      average_correctness: 0.625,
      success_rate: 0.5,
      best_of_k: 2 / 3,
      best_of_k_success: 2 / 3,
      tasks: 3,
      k: 2,
    });
    expect(summarizeRewards([]).n).toBe(0);
  });
});
