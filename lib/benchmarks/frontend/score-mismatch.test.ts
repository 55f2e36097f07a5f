import { describe, expect, it } from "vitest";
import { embedderMismatch, profileMismatch, scoreMismatches } from "./score-mismatch";
import { runEmbedder } from "./run-options";
import type { RenderProfile } from "../../colbench/render-profile";
import { commonRunConfig } from "../testing/run-config";

const frontendConfig = (extra: Record<string, unknown>) => commonRunConfig("frontend", extra);

const paper: RenderProfile = { name: "paper", browser: "chromium", placeholders: "generated" };
const clip = { embedder: "clip-vit-b32", clipPath: "openai/clip-vit-base-patch32" };
const weightFree = { embedder: "default" };

/** A run as the rules read it; `render` null: imported rewards (no run configuration). */
const run = (name: string, render: RenderProfile | null, embedder: Record<string, unknown> = weightFree) => ({
  name,
  config: render ? frontendConfig({ render, ...embedder }) : { imported: "trajectories.jsonl", benchmark: "frontend" },
});

describe("frontend runs are compared only under one render profile", () => {
  it("lets runs of one profile be compared", () => {
    expect(profileMismatch(run("a", paper), run("b", { ...paper }))).toBeNull();
  });

  it("names both profiles, and how to rescore, when they differ in geometry, engine, placeholders or are unknown", () => {
    expect(profileMismatch(run("new", paper), run("old", { ...paper, name: "studio-1280" }))).toBe(
      "new was scored under paper · chromium · generated placeholders and old under studio-1280 · chromium · generated placeholders: their similarities are not comparable. Rescore one with `colbench rescore RUN --profile P --browser B`.",
    );
    expect(profileMismatch(run("a", paper), run("b", { ...paper, browser: "firefox" }))).toMatch(/paper · firefox/);
    expect(profileMismatch(run("a", paper), run("b", { ...paper, placeholders: "picsum-48:0123456789ab" }))).toMatch(
      /placeholder photo picsum-48:0123456789ab/,
    );
    expect(profileMismatch(run("a", paper), run("imported", null))).toMatch(
      /imported under an unknown render profile \(imported rewards\)/,
    );
  });
});

describe("frontend runs are compared only when one embedder made their similarities", () => {
  it("reads the embedder from a run's config: CLIP with its weights, or the weight-free default-v2 said to be not the paper's", () => {
    expect(runEmbedder(frontendConfig(clip))).toEqual({
      id: "clip-vit-b32",
      weights: "openai/clip-vit-base-patch32",
      paperMetric: true,
      label: "clip-vit-b32 · openai/clip-vit-base-patch32",
    });
    expect(runEmbedder(frontendConfig(weightFree))).toEqual({
      id: "default-v2",
      weights: null,
      paperMetric: false,
      label: "default-v2 · weight-free, not comparable with the paper",
    });
    expect(runEmbedder({ ...frontendConfig({}), benchmark: "backend" })).toBeNull();
    expect(runEmbedder({ imported: true })).toBeNull();
  });

  it("refuses a win rate across embedders (or CLIP weights), naming both; two runs of imported rewards are let be", () => {
    expect(embedderMismatch(run("a", paper, clip), run("b", paper, { ...clip }))).toBeNull();
    expect(embedderMismatch(run("a", paper, clip), run("b", paper, weightFree))).toMatch(
      /^a's similarities come from clip-vit-b32 · openai\/clip-vit-base-patch32 and b's from default-v2 · weight-free, not comparable with the paper: their similarities are not comparable/,
    );
    expect(embedderMismatch(run("a", paper, clip), run("b", paper, { ...clip, clipPath: "/data/my-clip" }))).toMatch(
      /not comparable/,
    );
    expect(embedderMismatch(run("a", null), run("b", null))).toBeNull();
  });

  it("says every difference, the render profile first", () => {
    expect(scoreMismatches(run("a", paper, clip), run("b", paper, weightFree)).map((m) => m.by)).toEqual(["embedder"]);
    expect(
      scoreMismatches(run("a", paper, clip), run("b", { ...paper, browser: "firefox" }, weightFree)).map((m) => m.by),
    ).toEqual(["render profile", "embedder"]);
    expect(scoreMismatches(run("a", paper, weightFree), run("b", paper, weightFree))).toEqual([]);
  });
});
