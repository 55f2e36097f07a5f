import { BackendScorer, type BackendScore } from "../../scoring/backend/scorer";
import { parseBackendScoreLine } from "../../scoring/backend/input";
import { summarizeRewards } from "../../scoring/metrics/metrics";
import { readScoreLines, scoreInOrder, type ScoreIo } from "../../scoring/score-lines";

// `colbench score backend IN.jsonl`: each line's answer against its task's hidden tests, in the
// Python sandbox. Loaded only when the command runs (score-cli.ts describes it).

export interface ScoreBackendOptions {
  out?: string;
  k?: number;
  workers?: number;
}

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
  io.stdout.write(
    `${JSON.stringify({ n, average_correctness, success_rate, best_of_k, best_of_k_success, tasks, k })}\n`,
  );
  return bad ? 1 : 0;
}
