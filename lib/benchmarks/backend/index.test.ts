import { describe, expect, it } from "vitest";
import type { BenchmarkModule } from "../module";
import { backend as registered } from "./index";
import { backendScoreCli } from "./score-cli";
// As the registry hands it out.
const backend: BenchmarkModule = registered;

describe("what a backend turn proposes", () => {
  it("gives a final answer without its marker and fences", () => {
    const turn = { role: "agent" as const, content: "I WANT TO ANSWER:\n```python\ndef f(x):\n    return x\n```" };
    expect(backend.proposalOf(turn)).toBe("def f(x):\n    return x\n");
  });
  it("gives the last code block the agent showed mid-dialogue, or nothing", () => {
    const shown = {
      role: "agent" as const,
      content: "Maybe:\n```python\na = 1\n```\nor:\n```python\na = 2\n```\nWhich one?",
    };
    expect(backend.proposalOf(shown)).toBe("a = 2\n");
    expect(backend.proposalOf({ role: "agent", content: "What should it return?" })).toBeNull();
    expect(backend.proposalOf({ role: "simulator", content: "```python\nx\n```" })).toBeNull();
  });
});

describe("a backend side in the labelling view", () => {
  const details = {
    tests: [
      { name: "test_add", expression: "add(1, 2) == 3", passed: true, reason: "ok", expected: "3", actual: "3" },
      { passed: false },
    ],
  };
  it("shows only whether each test passed without hidden information", () => {
    expect(backend.labelSide(details, false)).toEqual({
      tests: [
        { name: "test 1", passed: true },
        { name: "test 2", passed: false },
      ],
    });
  });
  it("shows the tests themselves with it, and the reference and tests as hidden information", () => {
    expect(backend.labelSide(details, true).tests![0]).toEqual({
      name: "test_add",
      passed: true,
      expression: "add(1, 2) == 3",
      reason: "ok",
      expected: "3",
      actual: "3",
    });
    expect(backend.labelSide(null, true)).toEqual({ tests: [] });
    expect(
      backend.hidden.label(
        { groundTruth: "def add(a, b): return a + b", testCases: [{ name: "t", expression: "add(1, 2) == 3" }] },
        null,
      ),
    ).toEqual({
      groundTruth: "def add(a, b): return a + b",
      tests: ["add(1, 2) == 3"],
    });
  });
});

describe("colbench score backend", () => {
  it("keeps its options", () => {
    expect(backendScoreCli.options.map((o) => o.flags)).toEqual(["--out <file>", "--k <k>", "--workers <n>"]);
  });
});
