import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareRunFiles } from "./compare-runs";

function sink(): PassThrough & { text: () => string } {
  const s = new PassThrough() as PassThrough & { text: () => string };
  let buf = "";
  s.on("data", (chunk: Buffer) => (buf += chunk.toString()));
  s.text = () => buf;
  return s;
}

describe("compare-runs", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "colbench-compare-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, rows: unknown[]) => {
    const file = path.join(dir, name);
    writeFileSync(file, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n"));
    return file;
  };

  it("matches tasks by ground truth and prints the win rate with its interval, JSON last", () => {
    const a = write("a.jsonl", [
      { task: { ground_truth: "t1" }, reward: 0.9 },
      { task: { ground_truth: "t2" }, reward: 0.5 },
      { task: { ground_truth: "t3" }, reward: 0.7 },
      { ground_truth: "t4", reward: 0.1 },
      { task: { ground_truth: "only-a" }, reward: 1 },
    ]);
    const b = write("b.jsonl", [
      { task: { ground_truth: "t3" }, reward: 0.7 },
      { task: { ground_truth: "t2" }, reward: 0.6 },
      { task: { ground_truth: "t1" }, reward: 0.2 },
      { task: { ground_truth: "t4" }, reward: 0.3 },
    ]);
    const stdout = sink();
    const stderr = sink();
    expect(compareRunFiles(a, b, { stdout, stderr })).toBe(0);
    const last = JSON.parse(stdout.text().trim().split("\n").at(-1)!) as Record<string, number>;
    expect(last).toMatchObject({ n: 4, wins: 1, ties: 1, losses: 2, win_rate: 1.5 / 4, only_in_a: 1, only_in_b: 0 });
    expect(last.ci_low).toBeLessThanOrEqual(last.win_rate!);
    expect(last.ci_high).toBeGreaterThanOrEqual(last.win_rate!);
    expect(last.ci_low).toBeGreaterThanOrEqual(0);
    expect(last.ci_high).toBeLessThanOrEqual(1);
    // The same files give the same interval (fixed seed).
    const again = sink();
    compareRunFiles(a, b, { stdout: again, stderr: sink() });
    expect(again.text()).toBe(stdout.text());
    expect(stderr.text()).toContain("1 task(s) only in A");
  });

  it("reports unreadable lines as FILE:LINE: field: problem and fails", () => {
    const a = write("a.jsonl", [
      '{"task": {"ground_truth": "t1"}, "reward": "high"}',
      "nope",
      { task: { ground_truth: "t2" }, reward: 0.5 },
    ]);
    const b = write("b.jsonl", [{ task: { ground_truth: "t2" }, reward: 0.5 }]);
    const stderr = sink();
    expect(compareRunFiles(a, b, { stdout: sink(), stderr })).toBe(1);
    expect(stderr.text()).toContain(`${a}:1: reward:`);
    expect(stderr.text()).toContain(`${a}:2: (json):`);
  });
});
