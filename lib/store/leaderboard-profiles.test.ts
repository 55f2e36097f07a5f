import { describe, expect, it } from "vitest";
import { scoreMismatches } from "./leaderboard";
import { commonRunConfig } from "../benchmarks/testing/run-config";

// Which runs' rewards compare is each benchmark's rule (lib/benchmarks/frontend/score-mismatch.test.ts
// holds the frontend's); the Leaderboard and Compare ask the run's benchmark.

const config = commonRunConfig;

describe("runs' rewards are compared by their benchmark's rule", () => {
  it("lets any two runs of a benchmark without a rule be compared, imported or not", () => {
    expect(
      scoreMismatches(
        { name: "a", benchmark: "backend", config: config("backend") },
        { name: "b", benchmark: "backend", config: { imported: "t.jsonl", benchmark: "backend" } },
      ),
    ).toEqual([]);
  });

  it("asks the benchmark that has one, which says what differs", () => {
    const paper = { name: "paper", browser: "chromium", placeholders: "generated" };
    const a = { name: "a", benchmark: "frontend" as const, config: config("frontend", { render: paper }) };
    const b = {
      name: "b",
      benchmark: "frontend" as const,
      config: config("frontend", { render: { ...paper, browser: "firefox" } }),
    };
    expect(scoreMismatches(a, a)).toEqual([]);
    expect(scoreMismatches(a, b)).toEqual([
      {
        by: "render profile",
        reason: expect.stringMatching(/^a was scored under paper · chromium .* and b under paper · firefox/) as unknown,
      },
    ]);
  });
});
