import type { Store } from "../store";
import { bradleyTerryRatings, type Game } from "./bradley-terry";

// The human-preference leaderboard: every label on a pair whose sides come from two runs is a
// game between those runs (A or B wins; tie and both bad are half a win each).

export interface HumanRating {
  runId: number;
  run: string;
  rating: number;
  low: number | null;
  high: number | null;
  /** Labels this run's sides were in. */
  votes: number;
}

const SCORE = { a: 1, b: 0, tie: 0.5, both_bad: 0.5 } as const;

export async function humanRatings(
  store: Store,
  options: { rounds?: number; seed?: number } = {},
): Promise<HumanRating[]> {
  const votes = await store.labels.runVotes();
  if (!votes.length) return [];
  const games: Game<number>[] = votes.map((v) => ({ a: v.aRunId, b: v.bRunId, score: SCORE[v.choice] }));
  const names = new Map((await store.runs.list()).map((r) => [r.id, r.name]));
  return bradleyTerryRatings(games, { rounds: options.rounds ?? 200, seed: options.seed ?? 7 }).map((r) => ({
    runId: r.player,
    run: names.get(r.player) ?? `run ${r.player}`,
    rating: r.rating,
    low: r.low ?? null,
    high: r.high ?? null,
    votes: r.games,
  }));
}
