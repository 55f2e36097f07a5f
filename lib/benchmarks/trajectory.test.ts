import { describe, expect, it } from "vitest";
import { parseTrajectoryLine } from "./trajectory";

const line = (task: Record<string, unknown>) =>
  JSON.stringify({ task, dialogue_history: [{ role: "user", content: "hi" }], answer: null, reward: 0.5 });

describe("a trajectory line", () => {
  it("reads its task as the benchmark that recognizes the record when none is named", () => {
    const backend = parseTrajectoryLine(
      line({ problem_description: "p", ground_truth: "def f(): pass", test_cases: { t: "f() is None" } }),
    );
    expect(backend.ok && backend.trajectory.task.benchmark).toBe("backend");
    const frontend = parseTrajectoryLine(line({ problem_description: "p", ground_truth: "<html></html>" }));
    expect(frontend.ok && frontend.trajectory.task.benchmark).toBe("frontend");
  });

  it("says so on `task` when no benchmark's format matches the record", () => {
    expect(parseTrajectoryLine(line({ problem_description: "p", ground_truth: "g", extra: 1 }))).toEqual({
      ok: false,
      problems: [{ field: "task", message: expect.stringMatching(/matches no benchmark's task format/) as unknown }],
    });
  });

  it("names a problem of the task's fields under task. when the benchmark is named", () => {
    const parsed = parseTrajectoryLine(line({ problem_description: "p" }), "frontend");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((p) => p.field)).toEqual(["task.ground_truth"]);
  });
});
