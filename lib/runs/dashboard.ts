import type { Histogram, RunFigures } from "../store/run-figures";
import type { Pace } from "./pace";

// The figures the run page and Compare chart, from what the store counted for one run
// (`lib/store/run-figures.ts`): how rewards are spread, how success depends on how many turns the
// agent took (the paper's collaboration length), answer lengths, tokens and their price, and how
// fast a running run goes.

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
  tokens: {
    agent: { prompt: number; completion: number };
    simulator: { prompt: number; completion: number };
    meanPerEpisode: number;
  };
  /** Dollars, where the run gives prices. */
  cost: { agent: number; simulator: number; total: number } | null;
  /** For a run still playing: its pace and ETA (lib/runs/pace.ts), the same the Workers panel shows. */
  pace: (Pace & { eta: Date | null }) | null;
}

const REWARD_LABELS = [
  "0",
  ...Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`),
  "1",
];

/** Every bin from 0 to the one holding the largest value, labelled by its range; the last reads "≥". */
function bins(h: Histogram, unit = ""): Bin[] {
  const count = Math.floor(h.max / h.width) + 1;
  const counts = new Map(h.counts);
  return Array.from({ length: count }, (_, i) => ({
    label: i === count - 1 ? `≥${i * h.width}${unit}` : `${i * h.width}–${(i + 1) * h.width - 1}${unit}`,
    count: counts.get(i) ?? 0,
  }));
}

export function runDashboard(
  figures: RunFigures,
  options: { prices?: { agent?: SidePrices; simulator?: SidePrices }; pace?: Pace | null; now?: Date } = {},
): RunDashboard {
  const rewardCounts = new Map(figures.rewardBins);
  const turnCounts = new Map(figures.turns);
  const maxTurns = Math.max(0, ...figures.turns.map(([t]) => t));
  const { tokens } = figures;
  const price = (side: { prompt: number; completion: number }, p?: SidePrices) =>
    p ? (side.prompt * p.prompt + side.completion * p.completion) / 1e6 : 0;
  const cost =
    options.prices?.agent || options.prices?.simulator
      ? (() => {
          const agent = price(tokens.agent, options.prices?.agent);
          const simulator = price(tokens.simulator, options.prices?.simulator);
          return { agent, simulator, total: agent + simulator };
        })()
      : null;
  const allTokens =
    tokens.agent.prompt + tokens.agent.completion + tokens.simulator.prompt + tokens.simulator.completion;
  const { tasks } = figures;
  return {
    episodes: figures.episodes,
    done: figures.done,
    k: tasks.k,
    bestOfK: {
      reward: tasks.count ? tasks.bestSum / tasks.count : 0,
      success: tasks.count ? tasks.successes / tasks.count : 0,
    },
    rewards: REWARD_LABELS.map((label, i) => ({ label, count: rewardCounts.get(i) ?? 0 })),
    byAgentTurns: figures.byAgentTurns.map(([agentTurns, episodes, successes, total]) => ({
      agentTurns,
      episodes,
      success: successes / episodes,
      meanReward: total / episodes,
    })),
    turns: Array.from({ length: maxTurns + 1 }, (_, n) => ({ label: String(n), count: turnCounts.get(n) ?? 0 })).filter(
      (b, n) => n > 0 || b.count > 0,
    ),
    answerChars: bins(figures.answerChars),
    tokensPerEpisode: bins(figures.tokensPerEpisode),
    // Over the episodes that were played (ended), not those still waiting their turn.
    tokens: { ...tokens, meanPerEpisode: figures.played ? allTokens / figures.played : 0 },
    cost,
    pace: options.pace
      ? {
          ...options.pace,
          eta:
            options.pace.etaMs === null ? null : new Date((options.now ?? new Date()).getTime() + options.pace.etaMs),
        }
      : null,
  };
}
