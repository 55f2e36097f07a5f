import { describe, expect, it } from "vitest";
import { runConfigSchema } from "./run-config";
import { runEmbedder, runRenderProfile } from "./frontend/run-options";

const common = {
  selector: "all",
  taskIds: [1, 2],
  bestOf: 2,
  agent: { baseUrl: "http://localhost:8000/v1", model: "m" },
  simulator: { human: true },
  prompts: { agent: "a", simulator: "s" },
  promptSources: { agent: "default", simulator: "default" },
  sampling: { temperature: 1, maxTokens: 10, logprobs: false },
  maxAgentTurns: 10,
  concurrency: 4,
};

describe("a run's stored config", () => {
  it("reads a backend run stored when every config carried the frontend's fields, without them", () => {
    const stored = {
      benchmark: "backend",
      ...common,
      embedder: "default",
      render: { name: "studio-1280", browser: "chromium", placeholders: "generated" },
    };
    const parsed = runConfigSchema.parse(stored);
    expect(parsed).toEqual({ benchmark: "backend", ...common, messageChars: expect.any(Number) as unknown });
    expect(runRenderProfile(stored)).toBeNull();
    expect(runEmbedder(stored)).toBeNull();
  });

  it("fills a frontend run's options as runs stored before them were made", () => {
    const parsed = runConfigSchema.parse({ benchmark: "frontend", ...common });
    expect(parsed).toMatchObject({
      benchmark: "frontend",
      embedder: "default",
      render: { name: "studio-1280", browser: "chromium", placeholders: "generated" },
    });
    expect(
      runEmbedder({
        benchmark: "frontend",
        ...common,
        embedder: "clip-vit-b32",
        clipPath: "openai/clip-vit-base-patch32",
      }),
    ).toMatchObject({ id: "clip-vit-b32", paperMetric: true });
  });

  it("refuses a config of no known benchmark, or with a common field missing", () => {
    expect(runConfigSchema.safeParse({ benchmark: "nope", ...common }).success).toBe(false);
    expect(runConfigSchema.safeParse({ benchmark: "backend", ...common, bestOf: 0 }).success).toBe(false);
  });
});
