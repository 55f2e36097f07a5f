import { describe, expect, it } from "vitest";
import { backendTaskKey, parseBackendScoreLine } from "./input";

describe("score input lines", () => {
  const task = { problem_description: "p", ground_truth: "def f(): return 1", test_cases: { t1: "f()" } };

  it("accepts official trajectories and bare records", () => {
    const wrapped = parseBackendScoreLine(JSON.stringify({ task, dialogue_history: [], answer: "x", reward: 0 }));
    const bare = parseBackendScoreLine(
      JSON.stringify({ ground_truth: task.ground_truth, test_cases: task.test_cases, answer: "x" }),
    );
    expect(wrapped.ok && bare.ok).toBe(true);
    if (!wrapped.ok || !bare.ok) return;
    expect(wrapped.line.input).toEqual({ groundTruth: task.ground_truth, testCases: task.test_cases, answer: "x" });
    expect(wrapped.line.taskKey).toBe(bare.line.taskKey);
    expect(wrapped.line.taskKey).toBe(backendTaskKey(task.ground_truth, task.test_cases));
    expect(wrapped.line.record.reward).toBe(0);
  });

  it("scores a missing answer (null) as an empty one", () => {
    const parsed = parseBackendScoreLine(JSON.stringify({ task, answer: null }));
    expect(parsed.ok && parsed.line.input.answer).toBe("");
  });

  it("names the field and the problem", () => {
    const problems = (text: string) => {
      const parsed = parseBackendScoreLine(text);
      return parsed.ok ? [] : parsed.problems.map((p) => p.field);
    };
    expect(problems("{oops")).toEqual(["(json)"]);
    expect(problems("[1]")).toEqual(["(line)"]);
    expect(problems(JSON.stringify({ task: { ...task, test_cases: {} }, answer: "x" }))).toEqual(["task.test_cases"]);
    expect(problems(JSON.stringify({ task, answer: 3 }))).toEqual(["answer"]);
    expect(problems(JSON.stringify({ answer: "x" })).sort()).toEqual(["ground_truth", "test_cases"]);
  });
});
