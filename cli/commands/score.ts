import { Command } from "commander";
import { BackendScorer, type BackendScore } from "../../lib/scoring/backend/scorer";
import { parseBackendScoreLine } from "../../lib/scoring/backend/input";
import { summarizeRewards } from "../../lib/scoring/metrics/metrics";
import { action } from "../errors";
import { positiveInt, readScoreLines, scoreInOrder, type ScoreIo } from "../score-lines";
import { registerScoreFrontend } from "./score-frontend";

// `colbench score backend IN.jsonl`: each line's answer against its task's hidden tests, in the
// Python sandbox. `score` is a parent command so that other benchmarks can add siblings
// (`score frontend`) from their own files: see registerScoreBackend.

export interface ScoreBackendOptions {
  out?: string;
  k?: number;
  workers?: number;
}

export type { ScoreIo };

/** Scores a file; resolves with the exit status (1 when some lines were unreadable). */
export async function scoreBackendFile(
  file: string,
  options: ScoreBackendOptions,
  io: ScoreIo = { stdout: process.stdout, stderr: process.stderr },
  startScorer: () => Promise<BackendScorer> = () => BackendScorer.start({ workers: options.workers }),
): Promise<number> {
  const { lines, bad } = readScoreLines(file, parseBackendScoreLine, io);
  const scorer = await startScorer();
  let scores: BackendScore[];
  try {
    scorer.warmFor(lines.map((line) => line.input));
    scores = await scoreInOrder(lines, (line) => scorer.score(line.input), {
      out: options.out,
      io,
      record: (line, score) => ({ ...line.record, reward: score.reward, tests: score.tests }),
    });
  } finally {
    await scorer.close();
  }

  const samples = lines.map((line, i) => ({ task: line.taskKey, reward: scores[i]!.reward }));
  const summary = summarizeRewards(samples, options.k);
  if (options.k !== undefined) {
    const short = new Map<string, number>();
    for (const s of samples) short.set(s.task, (short.get(s.task) ?? 0) + 1);
    const fewer = [...short.values()].filter((count) => count < options.k!).length;
    if (fewer) io.stderr.write(`colbench: ${fewer} of ${short.size} tasks have fewer than ${options.k} samples\n`);
  }
  if (bad) io.stderr.write(`colbench: ${bad} line(s) of ${file} could not be scored\n`);
  const { n, average_correctness, success_rate, best_of_k, best_of_k_success, tasks, k } = summary;
  io.stdout.write(`${JSON.stringify({ n, average_correctness, success_rate, best_of_k, best_of_k_success, tasks, k })}\n`);
  return bad ? 1 : 0;
}

/** Adds `backend` under an existing `score` command. */
export function registerScoreBackend(score: Command): void {
  score
    .command("backend")
    .description("score backend answers against their tasks' hidden tests, in the Python sandbox")
    .argument("<in>", "JSONL: official trajectories {task, dialogue_history, answer} or {ground_truth, test_cases, answer}")
    .option("--out <file>", "write every scored line again, with reward and per-test results added")
    .option("--k <k>", "samples per task counted for best-of-k (default: all of a task's samples)", positiveInt)
    .option("--workers <n>", "sandbox worker processes (default: one per core)", positiveInt)
    .action(
      action(async (file: string, opts: ScoreBackendOptions) => {
        process.exitCode = await scoreBackendFile(file, opts);
      }),
    );
}

export function register(program: Command): void {
  const score = program.command("score").description("score answers (prints a summary as the last line of stdout)");
  registerScoreBackend(score);
  registerScoreFrontend(score);
}
