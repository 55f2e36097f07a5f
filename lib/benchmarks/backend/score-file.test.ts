import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreBackendFile } from "./score-file";

const truth = "def f(x):\n    return x * 2\n";
const task = { problem_description: "double it", ground_truth: truth, test_cases: { a: "f(1)", b: "f(2)" } };
const other = { ground_truth: "def g():\n    return 'g'\n", test_cases: { only: "g()" } };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "colbench-score-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += chunk));
  stderr.on("data", (chunk) => (err += chunk));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}

describe("colbench score backend", () => {
  it("scores good lines, reports bad ones as FILE:LINE: field: problem, and ends stdout with the summary", async () => {
    const input = path.join(dir, "in.jsonl");
    const output = path.join(dir, "out.jsonl");
    writeFileSync(
      input,
      [
        JSON.stringify({
          task,
          dialogue_history: [{ role: "user", content: "hi" }],
          answer: `\`\`\`python\n${truth}\`\`\``,
          reward: null,
        }),
        JSON.stringify({ ...task, answer: "def f(x):\n    return x * 2 if x == 1 else 0\n" }),
        "{not json",
        JSON.stringify({ task: { ground_truth: truth }, answer: "x" }),
        JSON.stringify({ ...other, answer: "def g():\n    return 'nope'\n" }),
        "",
      ].join("\n"),
    );
    const { io, out, err } = capture();
    const status = await scoreBackendFile(input, { out: output, workers: 1 }, io);

    expect(status).toBe(1);
    expect(err()).toContain(`${input}:3: (json): `);
    expect(err()).toContain(`${input}:4: task.test_cases: `);
    const lines = out().trim().split("\n");
    expect(JSON.parse(lines[lines.length - 1]!)).toEqual({
      n: 3,
      average_correctness: 0.5,
      success_rate: 1 / 3,
      best_of_k: 0.5,
      best_of_k_success: 0.5,
      tasks: 2,
      k: 2,
    });

    const written = readFileSync(output, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { reward: number; dialogue_history: unknown[]; tests: unknown[] });
    expect(written.map((r) => r.reward)).toEqual([1, 0.5, 0]);
    expect(written[0]!.dialogue_history).toEqual([{ role: "user", content: "hi" }]);
    expect(written[1]!.tests[1]).toMatchObject({
      name: "b",
      expression: "f(2)",
      passed: false,
      reason: "mismatch",
      expected: "4",
      actual: "0",
    });
  });

  it("counts only the first k samples of a task for best-of-k", async () => {
    const input = path.join(dir, "k.jsonl");
    const wrong = "def f(x):\n    return 0\n";
    writeFileSync(input, [wrong, truth, wrong].map((answer) => JSON.stringify({ task, answer })).join("\n"));
    const one = capture();
    expect(await scoreBackendFile(input, { k: 1, workers: 1 }, one.io)).toBe(0);
    expect(JSON.parse(one.out().trim())).toMatchObject({ n: 3, best_of_k: 0, k: 1 });
    const two = capture();
    await scoreBackendFile(input, { k: 2, workers: 1 }, two.io);
    expect(JSON.parse(two.out().trim())).toMatchObject({ best_of_k: 1, best_of_k_success: 1, k: 2 });
  });
});
