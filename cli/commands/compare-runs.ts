import { readFileSync } from "node:fs";
import { Command } from "commander";
import { formatProblem } from "../../lib/colbench/tasks";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, parseScoredLine, winRate } from "../../lib/scoring/metrics/compare";
import { action } from "../errors";

// `colbench compare-runs A.jsonl B.jsonl`: how often run A beats run B, task by task.

export interface CompareIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

function readScored(file: string, io: CompareIo): { samples: { taskKey: string; reward: number }[]; bad: number } {
  const samples: { taskKey: string; reward: number }[] = [];
  let bad = 0;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      const parsed = parseScoredLine(raw);
      if (parsed.ok) samples.push({ taskKey: parsed.taskKey, reward: parsed.reward });
      else {
        bad += 1;
        for (const problem of parsed.problems) io.stderr.write(`${formatProblem(file, i + 1, problem)}\n`);
      }
    });
  return { samples, bad };
}

/** Compares two scored files; resolves with the exit status (1 when some lines were unreadable). */
export function compareRunFiles(
  fileA: string,
  fileB: string,
  io: CompareIo = { stdout: process.stdout, stderr: process.stderr },
): number {
  const a = readScored(fileA, io);
  const b = readScored(fileB, io);
  const r = winRate(a.samples, b.samples);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  if (r.n === 0) io.stderr.write("colbench: the two runs share no task (tasks are matched by their ground truth)\n");
  else {
    io.stdout.write(`A: ${fileA}\nB: ${fileB}\n`);
    io.stdout.write(`${r.n} tasks in both: A wins ${r.wins}, ties ${r.ties}, loses ${r.losses}\n`);
    io.stdout.write(
      `win rate of A over B: ${pct(r.win_rate)} (95% CI ${pct(r.ci_low)} to ${pct(r.ci_high)}, bootstrap over tasks)\n`,
    );
  }
  if (r.only_in_a || r.only_in_b)
    io.stderr.write(`colbench: ${r.only_in_a} task(s) only in A and ${r.only_in_b} only in B were left out\n`);
  io.stdout.write(
    `${JSON.stringify({ ...r, ci_method: "percentile bootstrap over tasks", resamples: BOOTSTRAP_RESAMPLES, seed: BOOTSTRAP_SEED })}\n`,
  );
  return a.bad + b.bad > 0 || r.n === 0 ? 1 : 0;
}

export function register(program: Command): void {
  program
    .command("compare-runs")
    .description("win rate of run A over run B, task by task, with a 95% bootstrap interval (last line JSON)")
    .argument("<a>", "scored JSONL (lines with task.ground_truth and reward, e.g. from `score frontend --out`)")
    .argument("<b>", "scored JSONL of the other run")
    .action(
      action(async (a: string, b: string) => {
        process.exitCode = compareRunFiles(a, b);
      }),
    );
}
