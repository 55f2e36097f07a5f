import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedColbenchDir } from "../../paths";
import { BackendScorer } from "./scorer";

// All 1000 official backend tasks, each ground truth scored as the answer to its own task.
// Known: 997 pass every test ignoring the banned-string rule and 996 with it. Task 456's answer
// contains "sudo" (banned); 264 calls `random` unseeded; 741 returns NaN (NaN != NaN); 214 needs
// bs4, and 118/741/839 need numpy, so those fail where the package is missing.

const file = path.join(sharedColbenchDir(), "backend_test.jsonl");

interface Task {
  ground_truth: string;
  test_cases: Record<string, string>;
}

function importable(module: string): boolean {
  const python = process.env.COLBENCH_PYTHON ?? "python3";
  return spawnSync(python, ["-c", `import ${module}`], { stdio: "ignore" }).status === 0;
}

// The data set is not part of the project; without it there is nothing to check here.
describe.skipIf(!existsSync(file))("official backend test set (../shared/colbench)", () => {
  let scorer: BackendScorer;
  let tasks: Task[];
  beforeAll(async () => {
    tasks = readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Task);
    scorer = await BackendScorer.start();
  });
  afterAll(async () => {
    await scorer?.close();
  });

  it("scores every ground truth against itself: 996 pass, and the known ones fail for the known reasons", async () => {
    const scores = await Promise.all(
      tasks.map((task) =>
        scorer.score({ groundTruth: task.ground_truth, testCases: task.test_cases, answer: task.ground_truth }),
      ),
    );
    const failing = scores.flatMap((score, index) => (score.reward === 1 ? [] : [index]));

    const expected = new Set([264, 456, 741]);
    if (!importable("bs4")) expected.add(214);
    if (!importable("numpy")) [118, 741, 839].forEach((i) => expected.add(i));
    expect(failing).toEqual([...expected].sort((a, b) => a - b));
    expect(tasks.length).toBe(1000);
    if (importable("numpy") && !importable("bs4")) expect(tasks.length - failing.length).toBe(996);

    // Why each fails. 456 passes once the banned word is spelled so the rule misses it: 997.
    expect(scores[456]!.tests.every((t) => t.reason === "banned: sudo")).toBe(true);
    const unbanned = tasks[456]!.ground_truth.replace('"sudo ', '"su" "do ');
    expect(unbanned).not.toContain("sudo");
    expect(
      (
        await scorer.score({
          groundTruth: tasks[456]!.ground_truth,
          testCases: tasks[456]!.test_cases,
          answer: unbanned,
        })
      ).reward,
    ).toBe(1);
    const nan = scores[741]!.tests.filter((t) => !t.passed);
    if (importable("numpy")) {
      expect(nan.length).toBeGreaterThan(0);
      for (const t of nan) expect([t.reason, t.expected]).toEqual(["mismatch", expect.stringMatching(/nan/)]);
    }
    expect(scores[264]!.tests.some((t) => t.reason === "mismatch")).toBe(true);
    if (!importable("bs4")) expect(scores[214]!.tests.every((t) => t.reason === "ground truth failed")).toBe(true);
  });
});
