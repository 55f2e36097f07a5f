import { InvalidArgumentError } from "commander";

// The option parser `colbench score` commands share; reading and scoring lines is lib/scoring/score-lines.ts.

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}
