import type { EpisodeStats } from "../store/run-stats";
import { summarizeRewards } from "../scoring/metrics/metrics";

// The figures the run page and Compare chart, computed from one run's episode statistics: how
// rewards are spread, how success depends on how many turns the agent took (the paper's
// collaboration length), answer lengths, tokens and their price, and how fast a running run goes.

/** Dollars per million tokens, as the run's config may give them. */
export interface SidePrices {
  prompt: number;
  completion: number;
}

export interface Bin {
  label: string;
  count: number;
}

export interface RunDashboard {
  episodes: number;
  done: number;
  /** Samples per task, and over tasks their best sample's reward and success (the benchmark's best-of-k). */
  k: number;
  bestOfK: { reward: number; success: number };
  /** 0, then tenths, then exactly 1. */
  rewards: Bin[];
  /** By agent turns (questions asked plus the answer): episodes, success rate and mean reward. */
  byAgentTurns: Array<{ agentTurns: number; episodes: number; success: number; meanReward: number }>;
  turns: Bin[];
  answerChars: Bin[];
  tokensPerEpisode: Bin[];
  tokens: { agent: { prompt: number; completion: number }; simulator: { prompt: number; completion: number }; meanPerEpisode: number };
  /** Dollars, where the run gives prices. */
  cost: { agent: number; simulator: number; total: number } | null;
  /** For a run still playing: episodes finished per minute lately and when the rest will be. */
  pace: { perMinute: number; remaining: number; eta: Date | null } | null;
}

const REWARD_LABELS = ["0", ...Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`), "1"];

function rewardBin(reward: number): number {
  if (reward <= 0) return 0;
  if (reward >= 1) return 11;
  return 1 + Math.min(9, Math.floor(reward * 10));
}

/** Counts in equal-width bins from 0; the last bin holds everything from its start up. */
function histogram(values: number[], width: number, bins: number, unit = ""): Bin[] {
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(v / width))]!++;
  return counts.map((count, i) => ({ label: i === bins - 1 ? `≥${i * width}${unit}` : `${i * width}–${(i + 1) * width - 1}${unit}`, count }));
}

/** A bin width from a short list that puts the largest value within about ten bins. */
function niceWidth(max: number): number {
  for (const w of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]) if (max / w <= 10) return w;
  return 1_000_000;
}

export function runDashboard(stats: EpisodeStats[], options: { prices?: { agent?: SidePrices; simulator?: SidePrices }; running?: boolean; now?: Date } = {}): RunDashboard {
  const done = stats.filter((e) => e.status === "done" && e.reward !== null);
  const rewards = new Array<number>(12).fill(0);
  for (const e of done) rewards[rewardBin(e.reward!)]!++;

  const byTurns = new Map<number, { episodes: number; successes: number; total: number }>();
  for (const e of done) {
    const row = byTurns.get(e.agentTurns) ?? { episodes: 0, successes: 0, total: 0 };
    row.episodes++;
    row.successes += e.reward === 1 ? 1 : 0;
    row.total += e.reward!;
    byTurns.set(e.agentTurns, row);
  }

  const turns = done.map((e) => e.turns);
  const answers = done.flatMap((e) => (e.answerChars === null ? [] : [e.answerChars]));
  const perEpisode = stats.map((e) => e.tokens.agent.prompt + e.tokens.agent.completion + e.tokens.simulator.prompt + e.tokens.simulator.completion);
  const sum = (f: (e: EpisodeStats) => number) => stats.reduce((n, e) => n + f(e), 0);
  const tokens = {
    agent: { prompt: sum((e) => e.tokens.agent.prompt), completion: sum((e) => e.tokens.agent.completion) },
    simulator: { prompt: sum((e) => e.tokens.simulator.prompt), completion: sum((e) => e.tokens.simulator.completion) },
    meanPerEpisode: stats.length ? perEpisode.reduce((a, b) => a + b, 0) / stats.length : 0,
  };
  const price = (side: { prompt: number; completion: number }, p?: SidePrices) => (p ? (side.prompt * p.prompt + side.completion * p.completion) / 1e6 : 0);
  const cost = options.prices?.agent || options.prices?.simulator
    ? (() => {
        const agent = price(tokens.agent, options.prices?.agent);
        const simulator = price(tokens.simulator, options.prices?.simulator);
        return { agent, simulator, total: agent + simulator };
      })()
    : null;

  const maxTurns = Math.max(0, ...turns);
  const maxAnswer = Math.max(0, ...answers);
  const maxTokens = Math.max(0, ...perEpisode);
  const summary = summarizeRewards([...done].sort((a, b) => a.sample - b.sample).map((e) => ({ task: String(e.taskId), reward: e.reward! })));
  return {
    episodes: stats.length,
    done: done.length,
    k: summary.k,
    bestOfK: { reward: summary.best_of_k, success: summary.best_of_k_success },
    rewards: REWARD_LABELS.map((label, i) => ({ label, count: rewards[i]! })),
    byAgentTurns: [...byTurns.entries()].sort((a, b) => a[0] - b[0]).map(([agentTurns, r]) => ({ agentTurns, episodes: r.episodes, success: r.successes / r.episodes, meanReward: r.total / r.episodes })),
    turns: Array.from({ length: maxTurns + 1 }, (_, n) => ({ label: String(n), count: turns.filter((t) => t === n).length })).filter((b, n) => n > 0 || b.count > 0),
    answerChars: histogram(answers, niceWidth(maxAnswer), Math.floor(maxAnswer / niceWidth(maxAnswer)) + 1),
    tokensPerEpisode: histogram(perEpisode, niceWidth(maxTokens), Math.floor(maxTokens / niceWidth(maxTokens)) + 1),
    tokens,
    cost,
    pace: options.running ? pace(stats, options.now ?? new Date()) : null,
  };
}

/** Episodes finished per minute over the last ten minutes (or since the first finished), and the ETA at that pace. */
function pace(stats: EpisodeStats[], now: Date): RunDashboard["pace"] {
  const remaining = stats.filter((e) => e.status !== "done" && e.status !== "failed").length;
  const ended = stats.flatMap((e) => (e.endedAt ? [e.endedAt.getTime()] : [])).sort((a, b) => a - b);
  const windowStart = Math.max(now.getTime() - 10 * 60_000, ended[0] ?? now.getTime());
  const recent = ended.filter((t) => t >= windowStart).length;
  const minutes = (now.getTime() - windowStart) / 60_000;
  const perMinute = minutes > 0 ? recent / minutes : 0;
  return { perMinute, remaining, eta: perMinute > 0 ? new Date(now.getTime() + (remaining / perMinute) * 60_000) : null };
}
