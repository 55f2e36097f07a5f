import { describe, expect, it } from "vitest";
import { profileMismatch } from "./leaderboard";
import type { RunSummary } from "./runs";

const run = (name: string, render: RunSummary["render"], benchmark: RunSummary["benchmark"] = "frontend"): RunSummary => ({
  id: name.length,
  name,
  benchmark,
  kind: "benchmark",
  status: "done",
  createdAt: new Date(0),
  archivedAt: null,
  agent: "a",
  simulator: "s",
  total: 1,
  done: 1,
  failed: 0,
  meanReward: 1,
  successRate: 1,
  render,
  waiting: null,
});

const paper = { name: "paper", browser: "chromium", placeholders: "generated" } as const;

describe("frontend runs are compared only under one render profile", () => {
  it("lets runs of one profile be compared, and backend runs always", () => {
    expect(profileMismatch(run("a", paper), run("b", { ...paper }))).toBeNull();
    expect(profileMismatch(run("a", null, "backend"), run("b", null, "backend"))).toBeNull();
  });

  it("names both profiles, and how to rescore, when they differ in geometry, engine, placeholders or are unknown", () => {
    expect(profileMismatch(run("new", paper), run("old", { ...paper, name: "studio-1280" }))).toBe(
      "new was scored under paper · chromium · generated placeholders and old under studio-1280 · chromium · generated placeholders: their similarities are not comparable. Rescore one with `colbench rescore RUN --profile P --browser B`.",
    );
    expect(profileMismatch(run("a", paper), run("b", { ...paper, browser: "firefox" }))).toMatch(/paper · firefox/);
    expect(profileMismatch(run("a", paper), run("b", { ...paper, placeholders: "picsum-48:0123456789ab" }))).toMatch(/placeholder photo picsum-48:0123456789ab/);
    expect(profileMismatch(run("a", paper), run("imported", null))).toMatch(/imported under an unknown render profile \(imported rewards\)/);
  });
});
