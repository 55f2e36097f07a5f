import { z } from "zod";
import type { FieldProblem } from "../../colbench/tasks";
import { frontendTaskKey } from "../frontend/input";

// Win rate of one run over another, task by task: the run with the higher reward on a task wins
// it, equal rewards split it 0.5/0.5. Tasks are matched by identity (sha256 of the ground
// truth); a run with several samples of a task counts their mean. The interval is a percentile
// bootstrap over tasks with a fixed seed, so the same files always print the same interval.

const scoredLine = z.union([
  z.looseObject({
    task: z.looseObject({ ground_truth: z.string().min(1, "must be a non-empty string") }),
    reward: z.number(),
  }),
  z.looseObject({ ground_truth: z.string().min(1, "must be a non-empty string"), reward: z.number() }),
]);

export type ScoredLineParse = { ok: true; taskKey: string; reward: number } | { ok: false; problems: FieldProblem[] };

export function parseScoredLine(text: string): ScoredLineParse {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ field: "(json)", message: (error as Error).message }] };
  }
  const wrapped = typeof record === "object" && record !== null && "task" in record;
  const parsed = scoredLine.safeParse(record);
  if (!parsed.success) {
    // Report against the shape the line was meant to have, not both union arms.
    const issues = parsed.error.issues.flatMap((issue) =>
      issue.code === "invalid_union" ? (issue.errors[wrapped ? 0 : 1] ?? []) : [issue],
    );
    return {
      ok: false,
      problems: issues.map((issue) => ({
        field: issue.path.length ? issue.path.join(".") : "(line)",
        message: issue.message,
      })),
    };
  }
  const d = parsed.data as { task?: { ground_truth: string }; ground_truth?: string; reward: number };
  if (!Number.isFinite(d.reward))
    return { ok: false, problems: [{ field: "reward", message: "must be a finite number" }] };
  return { ok: true, taskKey: frontendTaskKey(d.task?.ground_truth ?? d.ground_truth!), reward: d.reward };
}

export interface WinRate {
  /** Tasks scored in both runs. */
  n: number;
  wins: number;
  ties: number;
  losses: number;
  /** (wins + ties / 2) / n */
  win_rate: number;
  ci_low: number;
  ci_high: number;
  only_in_a: number;
  only_in_b: number;
}

/** A small seeded generator (mulberry32): bootstrap intervals, and anything else drawn at random, must not change between runs. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BOOTSTRAP_RESAMPLES = 10_000;
export const BOOTSTRAP_SEED = 20250319;

function meanByTask(samples: { taskKey: string; reward: number }[]): Map<string, number> {
  const sums = new Map<string, [number, number]>();
  for (const s of samples) {
    const acc = sums.get(s.taskKey) ?? [0, 0];
    acc[0] += s.reward;
    acc[1] += 1;
    sums.set(s.taskKey, acc);
  }
  return new Map([...sums].map(([k, [sum, n]]) => [k, sum / n]));
}

/** Per-task outcomes (1 win, 0.5 tie, 0 loss for A) and the bootstrap interval of their mean. */
export function winRate(
  a: { taskKey: string; reward: number }[],
  b: { taskKey: string; reward: number }[],
  confidence = 0.95,
): WinRate {
  const ra = meanByTask(a);
  const rb = meanByTask(b);
  const outcomes: number[] = [];
  for (const [task, x] of ra) {
    const y = rb.get(task);
    if (y === undefined) continue;
    outcomes.push(x > y ? 1 : x < y ? 0 : 0.5);
  }
  const n = outcomes.length;
  const wins = outcomes.filter((o) => o === 1).length;
  const ties = outcomes.filter((o) => o === 0.5).length;
  const rate = n ? outcomes.reduce((s, o) => s + o, 0) / n : Number.NaN;
  let low = Number.NaN;
  let high = Number.NaN;
  if (n) {
    const random = mulberry32(BOOTSTRAP_SEED);
    const means = new Float64Array(BOOTSTRAP_RESAMPLES);
    for (let r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += outcomes[Math.floor(random() * n)]!;
      means[r] = s / n;
    }
    means.sort();
    const tail = (1 - confidence) / 2;
    low = means[Math.floor(tail * (BOOTSTRAP_RESAMPLES - 1))]!;
    high = means[Math.ceil((1 - tail) * (BOOTSTRAP_RESAMPLES - 1))]!;
  }
  return {
    n,
    wins,
    ties,
    losses: n - wins - ties,
    win_rate: rate,
    ci_low: low,
    ci_high: high,
    only_in_a: [...ra.keys()].filter((k) => !rb.has(k)).length,
    only_in_b: [...rb.keys()].filter((k) => !ra.has(k)).length,
  };
}
