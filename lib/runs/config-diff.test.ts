import { describe, expect, it } from "vitest";
import { runConfigSchema } from "../benchmarks/run-config";
import { configDiff, differences } from "./config-diff";

// Compare's "what differed": two stored configs walked field by field, the common fields under their
// labels and a benchmark's own options (the frontend's embedder and render profile, math-hard's
// judge) by their keys, without this module naming them.

const frontend = (over: Record<string, unknown> = {}) =>
  runConfigSchema.parse({
    benchmark: "frontend",
    selector: "split=test",
    taskIds: [1, 2, 3],
    limit: null,
    bestOf: 1,
    agent: { baseUrl: "http://a:8000/v1", model: "llama-8b" },
    simulator: { baseUrl: "http://s:8000/v1", model: "qwen-72b", replicas: ["http://s2:8000/v1"] },
    prompts: { agent: "You are an agent.\nWrite HTML.", simulator: "You are a person." },
    promptSources: { agent: "default", simulator: "default" },
    sampling: { temperature: 1, maxTokens: 1024, logprobs: false },
    maxAgentTurns: 10,
    concurrency: 16,
    embedder: "default",
    render: { name: "studio-1280", browser: "chromium", placeholders: "generated" },
    ...over,
  });

describe("configDiff", () => {
  it("marks exactly the three settings two runs differ in: the agent, the temperature and the embedder", () => {
    const a = frontend();
    const b = frontend({
      agent: { baseUrl: "http://a:8000/v1", model: "llama-70b" },
      sampling: { temperature: 0.2, maxTokens: 1024, logprobs: false },
      embedder: "clip-vit-b32",
    });
    const rows = configDiff(a, b);
    expect(rows.filter((r) => r.differs).map((r) => [r.key, r.a, r.b])).toEqual([
      ["agent", "llama-8b", "llama-70b"],
      ["sampling.temperature", "1", "0.2"],
      ["embedder", "default", "clip-vit-b32"],
    ]);
    expect(differences(rows)).toEqual(["Agent", "Temperature", "embedder"]);
    // Everything else is there, the same on both sides: the reader sees what was held fixed.
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.get("simulator.servers")).toMatchObject({ a: "http://s:8000/v1, http://s2:8000/v1", differs: false });
    expect(byKey.get("render.browser")).toMatchObject({ a: "chromium", b: "chromium", differs: false });
    expect(byKey.get("limit")).toMatchObject({ label: "Limit", a: "none", differs: false });
    expect(byKey.get("taskIds")).toMatchObject({ a: "3 tasks", differs: false });
  });

  it("tells a prompt changed under the same source by its text, and tasks and limits by what they picked", () => {
    const a = frontend();
    const b = frontend({
      prompts: { agent: "You are an agent.\nWrite a web page.", simulator: "You are a person." },
      limit: 2,
      taskIds: [1, 2],
    });
    const byKey = new Map(configDiff(a, b).map((r) => [r.key, r]));
    expect(byKey.get("prompts.agent")).toMatchObject({ differs: true, note: "the texts differ from line 2" });
    expect(byKey.get("prompts.agent")!.a).toMatch(/^the studio's own \(\d+ characters\)$/);
    expect(byKey.get("prompts.simulator")!.differs).toBe(false);
    expect(byKey.get("limit")).toMatchObject({ a: "none", b: "2", differs: true });
    expect(byKey.get("taskIds")).toMatchObject({ a: "3 tasks", b: "2 tasks", differs: true, note: "2 in common" });
  });

  it("walks a benchmark's own options it was never told of, server specs included", () => {
    const judge = (model: string) => ({ baseUrl: "http://j:8000/v1", model });
    const math = (model: string) => ({
      ...frontend(),
      benchmark: "math-hard",
      embedder: undefined,
      render: undefined,
      judge: judge(model),
    });
    const rows = configDiff(math("claude"), math("gpt"));
    expect(rows.filter((r) => r.differs).map((r) => r.key)).toEqual(["judge"]);
    expect(rows.find((r) => r.key === "judge.servers")).toMatchObject({ a: "http://j:8000/v1", differs: false });
  });

  it("reads a run without a recorded config (imported trajectories) as fields not set", () => {
    const rows = configDiff(null, frontend());
    expect(rows.find((r) => r.key === "agent")).toMatchObject({ a: "–", b: "llama-8b", differs: true });
    expect(rows.find((r) => r.key === "limit")).toMatchObject({ a: "–", b: "none" });
  });
});
