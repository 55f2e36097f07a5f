import { describe, expect, it } from "vitest";
import {
  LEGACY_RENDER_PROFILE,
  parseBrowserName,
  parseProfileName,
  profileLabel,
  PROFILES,
  renderProfileSchema,
  sameProfile,
} from "./render-profile";
import { runConfigSchema, type RunConfigOf } from "../benchmarks/run-config";
import { runRenderProfile } from "../benchmarks/frontend/run-options";

const config = {
  benchmark: "frontend",
  selector: "all",
  taskIds: [1],
  bestOf: 1,
  agent: { human: true },
  simulator: { human: true },
  prompts: { agent: "a", simulator: "s" },
  promptSources: { agent: "default", simulator: "default" },
  sampling: { temperature: 1, maxTokens: 10, logprobs: false },
  maxAgentTurns: 10,
  concurrency: 1,
};

describe("render profiles", () => {
  it("paper is the published scorer's window and extent; studio-1280 the earlier geometry", () => {
    expect(PROFILES.paper.geometry).toMatchObject({
      width: 1366,
      viewportHeight: 682,
      extent: "document",
      scrollbar: 12,
    });
    expect(PROFILES["studio-1280"].geometry).toMatchObject({
      width: 1280,
      viewportHeight: 800,
      extent: "full-page",
      scrollbar: 0,
    });
  });

  it("a run stored before profiles reads as studio-1280 in Chromium; a backend run has none", () => {
    expect((runConfigSchema.parse(config) as RunConfigOf<"frontend">).render).toEqual(LEGACY_RENDER_PROFILE);
    expect(runRenderProfile(config)).toEqual({ name: "studio-1280", browser: "chromium", placeholders: "generated" });
    expect(runRenderProfile({ ...config, benchmark: "backend" })).toBeNull();
    expect(runRenderProfile({ imported: "x.jsonl", benchmark: "frontend" })).toBeNull();
  });

  it("differ in any of profile, engine or placeholders, and say so in one line", () => {
    const a = { name: "paper", browser: "chromium", placeholders: "generated" } as const;
    expect(sameProfile(a, { ...a })).toBe(true);
    expect(sameProfile(a, { ...a, browser: "firefox" })).toBe(false);
    expect(sameProfile(a, { ...a, placeholders: "picsum-48:0123456789ab" })).toBe(false);
    expect(profileLabel({ ...a, placeholders: "picsum-48:0123456789ab" })).toBe(
      "paper · chromium · placeholder photo picsum-48:0123456789ab",
    );
  });

  it("refuses unknown names and malformed placeholders with the choices", () => {
    expect(() => parseProfileName("paper-ish")).toThrow(/one of paper, studio-1280/);
    expect(() => parseBrowserName("safari")).toThrow(/one of chromium, firefox/);
    expect(
      renderProfileSchema.safeParse({ name: "paper", browser: "chromium", placeholders: "picsum-48" }).success,
    ).toBe(false);
  });
});
