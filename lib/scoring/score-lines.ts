import { createWriteStream, readFileSync } from "node:fs";
import { once } from "node:events";
import cliProgress from "cli-progress";
import { formatProblem, type FieldProblem } from "../colbench/tasks";

// What every `colbench score <benchmark>` command (each benchmark's score-file.ts) does around its
// scorer: read and validate the JSONL lines (reporting bad ones as FILE:LINE: field: problem),
// score them concurrently with a progress bar, and write OUT in the input's order.

/** Where a score command writes. */
export interface ScoreIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export function readScoreLines<L>(
  file: string,
  parse: (raw: string) => { ok: true; line: L } | { ok: false; problems: FieldProblem[] },
  io: ScoreIo,
): { lines: L[]; bad: number } {
  const lines: L[] = [];
  let bad = 0;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      const parsed = parse(raw);
      if (parsed.ok) {
        lines.push(parsed.line);
        return;
      }
      bad += 1;
      for (const problem of parsed.problems) io.stderr.write(`${formatProblem(file, i + 1, problem)}\n`);
    });
  return { lines, bad };
}

/** Scores every line at once (the scorer bounds its own concurrency); OUT keeps the input's order. */
export async function scoreInOrder<L, S>(
  lines: readonly L[],
  score: (line: L) => Promise<S>,
  options: { out?: string; io: ScoreIo; record: (line: L, result: S) => object },
): Promise<S[]> {
  const out = options.out ? createWriteStream(options.out) : null;
  const bar = new cliProgress.SingleBar(
    {
      stream: options.io.stderr,
      format: "scoring {bar} {value}/{total} answers | {eta_formatted} left",
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(lines.length, 0);
  const results = new Array<S | undefined>(lines.length);
  let written = 0;
  const flush = () => {
    while (written < lines.length && results[written] !== undefined) {
      out?.write(`${JSON.stringify(options.record(lines[written]!, results[written]!))}\n`);
      written += 1;
    }
  };
  try {
    await Promise.all(
      lines.map(async (line, i) => {
        results[i] = await score(line);
        bar.increment();
        flush();
      }),
    );
  } finally {
    bar.stop();
    if (out) {
      out.end();
      await once(out, "close");
    }
  }
  return results as S[];
}
