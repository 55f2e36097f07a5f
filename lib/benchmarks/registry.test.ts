import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../paths";
import { BENCHMARKS, benchmarkOf, benchmarks, isBenchmark, type BenchmarkModule } from "./index";
import { defaultPrompt } from "./prompts";
import { runConfigSchema } from "./run-config";
import { commonRunConfig } from "./testing/run-config";

// Every registered benchmark has every piece, and each is sane: a benchmark added to the registry
// without its prompts, samples or runtime fails here, not in a run.

const sampleLines = (name: string) =>
  fs
    .readFileSync(path.join(projectRoot, "samples", `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((line) => line.trim());

const REWARD_LISTS = [[], [0], [1], [0, 1], [1, 0.5, 0], [0.2, 0.35, 0.9, 0.9], [1, 1, 1], [0.05, 0.1, 0.95, 0.4]];

describe.each(BENCHMARKS)("the %s benchmark", (name) => {
  const module: BenchmarkModule = benchmarks[name];

  it("is registered under its own name", () => {
    expect(module.name).toBe(name);
    expect(isBenchmark(name)).toBe(true);
    expect(benchmarkOf(name)).toBe(module);
    expect(module.title.trim()).not.toBe("");
  });

  it("has its agent's and simulator's prompts, non-empty", () => {
    for (const role of ["agent", "simulator"] as const)
      expect(defaultPrompt(name, role).trim().length).toBeGreaterThan(0);
  });

  it("parses every sample task, and each round-trips through its official record", () => {
    const lines = sampleLines(name);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const parsed = module.task.parse(JSON.parse(line));
      expect(parsed.ok, line.slice(0, 120)).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.task.benchmark).toBe(name);
      expect(module.task.schema.safeParse(JSON.parse(line)).success).toBe(true);
      const again = module.task.parse(module.task.official(parsed.task));
      expect(again).toEqual(parsed);
    }
  });

  it("opens its runtime lazily, with a scorer and a model simulator", async () => {
    const runtime = await module.runtime();
    expect(typeof runtime.openScorer).toBe("function");
    expect(typeof runtime.modelSimulator).toBe("function");
  });

  it("pairs samples by its rule: indices in range, the chosen better than the rejected, in a stable order", () => {
    expect(module.pairRule.name.trim()).not.toBe("");
    expect(module.pairRule.what.trim()).not.toBe("");
    for (const rewards of REWARD_LISTS) {
      const pairs = module.pairRule.pairs(rewards);
      for (const [chosen, rejected] of pairs) {
        expect(chosen).toBeGreaterThanOrEqual(0);
        expect(rejected).toBeLessThan(rewards.length);
        expect(rewards[chosen]!).toBeGreaterThan(rewards[rejected]!);
      }
      expect(module.pairRule.pairs(rewards)).toEqual(pairs);
    }
    expect(module.pairRule.pairs([0, 1]).length).toBeGreaterThan(0);
  });

  it("names and formats its reward", () => {
    expect(module.reward.name.trim()).not.toBe("");
    for (const reward of [0, 1]) {
      expect(module.reward.format(reward).trim()).not.toBe("");
      expect(module.reward.sentence(reward).trim()).not.toBe("");
    }
    expect(module.reward.format(0)).not.toBe(module.reward.format(1));
  });

  it("starts the agent's editor, and says what a turn proposes only for agent turns", () => {
    expect(typeof module.starter("a task")).toBe("string");
    expect(module.proposalOf({ role: "simulator", content: "```python\nx = 1\n```" })).toBeNull();
  });

  it("keeps hidden information out of a side unless the queue shows it", () => {
    expect(module.hidden.summary.trim()).not.toBe("");
    const shown = JSON.stringify(
      module.labelSide({ tests: [{ name: "t", expression: "f() == 1", passed: true }] }, false),
    );
    expect(shown).not.toContain("f() == 1");
  });

  it("has a run config variant of its own, with its options' defaults", () => {
    const base = commonRunConfig(name, {
      agent: { human: true },
      simulator: { human: true },
      prompts: { agent: "a", simulator: "s" },
    });
    const result = runConfigSchema.safeParse(base);
    if (!result.success) {
      // Options a benchmark requires (math-hard's judge) have no default: only they may be missing.
      const fields = result.error.issues.map((issue) => String(issue.path[0]));
      expect(
        fields.every((field) => field in module.runOptions),
        fields.join(", "),
      ).toBe(true);
      return;
    }
    expect(result.data.benchmark).toBe(name);
    expect(Array.isArray(module.describeRun(result.data))).toBe(true);
  });

  it("describes its score command, when it has one, with distinct flags", () => {
    const cli = module.scoreCli;
    if (!cli) return;
    expect(cli.description.trim()).not.toBe("");
    const flags = cli.options.map((o) => o.flags.split(" ")[0]);
    expect(new Set(flags).size).toBe(flags.length);
  });
});

describe("the registry", () => {
  it("lists the benchmarks in one order, and refuses unknown names saying which it knows", () => {
    expect(BENCHMARKS).toEqual(Object.keys(benchmarks));
    expect(isBenchmark("no-such")).toBe(false);
    expect(() => benchmarkOf("no-such")).toThrow(
      new RegExp(`no benchmark "no-such": the studio knows ${BENCHMARKS.join(", ")}`),
    );
  });

  it("reads a stored config of an unknown benchmark as no config", () => {
    expect(runConfigSchema.safeParse({ benchmark: "no-such" }).success).toBe(false);
  });
});
