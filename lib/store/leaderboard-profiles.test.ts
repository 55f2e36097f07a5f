import { describe, expect, it } from "vitest";
import { embedderMismatch, profileMismatch, scoreMismatch } from "./leaderboard";
import { runEmbedder } from "../colbench/run-config";
import type { RunSummary } from "./runs";

const run = (name: string, render: RunSummary["render"], benchmark: RunSummary["benchmark"] = "frontend", embedder: RunSummary["embedder"] = null): RunSummary => ({
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
  embedder,
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

describe("frontend runs are compared only when one embedder made their similarities", () => {
  const frontendConfig = (extra: Record<string, unknown>) => ({
    benchmark: "frontend",
    selector: "all",
    taskIds: [1],
    bestOf: 1,
    agent: { baseUrl: "http://x/v1", model: "a" },
    simulator: { baseUrl: "http://x/v1", model: "s" },
    prompts: { agent: "", simulator: "" },
    promptSources: { agent: "default", simulator: "default" },
    sampling: { temperature: 1, maxTokens: 10, logprobs: false },
    maxAgentTurns: 10,
    concurrency: 1,
    ...extra,
  });
  const weightFree = runEmbedder(frontendConfig({ embedder: "default" }));
  const clip = runEmbedder(frontendConfig({ embedder: "clip-vit-b32", clipPath: "openai/clip-vit-base-patch32" }));

  it("reads the embedder from a run's config: CLIP with its weights, or the weight-free default-v2 said to be not the paper's", () => {
    expect(clip).toEqual({ id: "clip-vit-b32", weights: "openai/clip-vit-base-patch32", paperMetric: true, label: "clip-vit-b32 · openai/clip-vit-base-patch32" });
    expect(weightFree).toEqual({ id: "default-v2", weights: null, paperMetric: false, label: "default-v2 · weight-free, not comparable with the paper" });
    expect(runEmbedder({ ...frontendConfig({}), benchmark: "backend" })).toBeNull();
    expect(runEmbedder({ imported: true })).toBeNull();
  });

  it("refuses a win rate across embedders (or CLIP weights), naming both; the profile is named first when both differ", () => {
    expect(embedderMismatch(run("a", paper, "frontend", clip), run("b", paper, "frontend", { ...clip! }))).toBeNull();
    expect(embedderMismatch(run("a", paper, "frontend", clip), run("b", paper, "frontend", weightFree))).toMatch(
      /^a's similarities come from clip-vit-b32 · openai\/clip-vit-base-patch32 and b's from default-v2 · weight-free, not comparable with the paper: their similarities are not comparable/,
    );
    expect(embedderMismatch(run("a", paper, "frontend", clip), run("b", paper, "frontend", { ...clip!, weights: "/data/my-clip" }))).toMatch(/not comparable/);
    expect(scoreMismatch(run("a", paper, "frontend", clip), run("b", paper, "frontend", weightFree))?.by).toBe("embedder");
    expect(scoreMismatch(run("a", paper, "frontend", clip), run("b", { ...paper, browser: "firefox" }, "frontend", weightFree))?.by).toBe("render profile");
    expect(scoreMismatch(run("a", paper, "frontend", weightFree), run("b", paper, "frontend", weightFree))).toBeNull();
  });
});
