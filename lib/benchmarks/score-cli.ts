import type { FileProgress } from "../hub";
import type { ScoreIo } from "../scoring/score-lines";

// `colbench score NAME IN.jsonl`, described by each benchmark that has one (its folder's
// score-cli.ts): plain data the cli turns into a commander command, and a `run` that loads the
// scorer only when called. The cli iterates the registry, so a new benchmark adds its command here.

export interface ScoreCliOption {
  /** Commander's flags: "--out <file>", "--no-cache". */
  flags: string;
  description: string;
  /** The values it takes, checked before `run` is called. */
  choices?: readonly string[];
  /** A positive whole number (parsed as one). */
  positiveInt?: boolean;
}

export type { ScoreIo };

/** Where a score command writes, and how it shows files it fetches (the cli's bars on stderr). */
export interface ScoreContext {
  io: ScoreIo;
  /** A progress display for hub downloads; stop it when done. */
  hubProgress: () => { onProgress: (progress: FileProgress) => void; stop: () => void };
}

export interface ScoreCli {
  description: string;
  /** What the one argument, the input file, holds. */
  input: string;
  options: ScoreCliOption[];
  /** Scores the file; resolves with the exit status (1 when some lines were unreadable). */
  run(file: string, options: Record<string, unknown>, context: ScoreContext): Promise<number>;
}
