import { describe, expect, it } from "vitest";
import type { EpisodeStats } from "../store/run-stats";
import { figuresOf } from "../store/run-figures";
import { runDashboard as dashboardOf } from "./dashboard";
import { paceOf } from "./pace";

const runDashboard = (stats: EpisodeStats[], options: Parameters<typeof dashboardOf>[1] = {}) =>
  dashboardOf(figuresOf(stats, options.now), options);

const episode = (
  id: number,
  reward: number | null,
  agentTurns: number,
  extra: Partial<EpisodeStats> = {},
): EpisodeStats => ({
  id,
  taskId: id,
  sample: 0,
  status: reward === null ? "running" : "done",
  reward,
  turns: agentTurns * 2,
  agentTurns,
  answerChars: reward === null ? null : 100 * id,
  tokens: { agent: { prompt: 1000, completion: 100 }, simulator: { prompt: 500, completion: 50 } },
  startedAt: null,
  endedAt: null,
  ...extra,
});

describe("runDashboard", () => {
  const stats = [episode(1, 1, 1), episode(2, 0, 3), episode(3, 0.45, 3), episode(4, 1, 3), episode(5, null, 2)];

  it("bins rewards into 0, tenths and exactly 1, and success by the agent's turns", () => {
    const d = runDashboard(stats);
    expect(d.done).toBe(4);
    expect(d.rewards.map((b) => b.count)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2]);
    expect(d.rewards[5]!.label).toBe("0.4–0.5");
    expect(d.byAgentTurns).toEqual([
      { agentTurns: 1, episodes: 1, success: 1, meanReward: 1 },
      { agentTurns: 3, episodes: 3, success: 1 / 3, meanReward: 1.45 / 3 },
    ]);
    expect(d.turns.find((b) => b.label === "6")!.count).toBe(3);
  });

  it("takes each task's best sample for best-of-k", () => {
    const twoSamples = [
      episode(1, 0.5, 2, { taskId: 1, sample: 0 }),
      episode(2, 1, 2, { taskId: 1, sample: 1 }),
      episode(3, 0, 2, { taskId: 2, sample: 0 }),
      episode(4, 0.2, 2, { taskId: 2, sample: 1 }),
    ];
    const d = runDashboard(twoSamples);
    expect(d.k).toBe(2);
    expect(d.bestOfK.success).toBe(0.5);
    expect(d.bestOfK.reward).toBeCloseTo(0.6, 12);
  });

  it("totals tokens per side and prices them per million", () => {
    const d = runDashboard(stats, { prices: { agent: { prompt: 0.15, completion: 0.6 } } });
    expect(d.tokens.agent).toEqual({ prompt: 5000, completion: 500 });
    expect(d.tokens.meanPerEpisode).toBe(1650);
    expect(d.cost!.agent).toBeCloseTo((5000 * 0.15 + 500 * 0.6) / 1e6, 12);
    expect(d.cost!.simulator).toBe(0);
    expect(runDashboard(stats).cost).toBeNull();
  });

  it("gives a running run's pace and when it will be done (Little's law: episodes in play over an episode's length)", () => {
    const now = new Date("2026-01-01T00:10:00Z");
    // Two in play, an episode takes 4 minutes: half an episode a minute, so two left take 4 minutes.
    const pace = paceOf({ remaining: 2, playing: 2, ended: 4, meanEpisodeMs: 4 * 60_000 });
    const d = runDashboard(stats, { pace, now });
    expect(d.pace!.perMinute).toBeCloseTo(0.5, 10);
    expect(d.pace!.remaining).toBe(2);
    expect(d.pace!.eta!.toISOString()).toBe("2026-01-01T00:14:00.000Z");
  });

  it("says a run is starting until its first episodes end, and never guesses a pace from one early finish", () => {
    expect(paceOf({ remaining: 40, playing: 8, ended: 0, meanEpisodeMs: null })).toEqual({
      state: "starting",
      remaining: 40,
      perMinute: null,
      etaMs: null,
      playing: 8,
      waiting: 0,
    });
    expect(paceOf({ remaining: 0, playing: 0, ended: 40, meanEpisodeMs: 1000 }).state).toBe("finished");
    expect(paceOf({ remaining: 5, playing: 0, ended: 35, meanEpisodeMs: 1000 }).state).toBe("idle");
    // One second after the first of 40 ended (it took a minute), 8 in play: 8 a minute, not hundreds.
    expect(paceOf({ remaining: 39, playing: 8, ended: 1, meanEpisodeMs: 60_000 }).perMinute).toBeCloseTo(8, 10);
  });

  it("averages tokens over the episodes that were played, not those still waiting", () => {
    const withPending = [
      ...stats,
      ...[6, 7, 8].map((id) =>
        episode(id, null, 0, {
          turns: 0,
          tokens: { agent: { prompt: 0, completion: 0 }, simulator: { prompt: 0, completion: 0 } },
        }),
      ),
    ];
    expect(runDashboard(withPending).tokens.meanPerEpisode).toBe(1650);
    expect(runDashboard(withPending).tokensPerEpisode.reduce((n, b) => n + b.count, 0)).toBe(5);
  });

  it("copes with a run that has nothing yet", () => {
    const d = runDashboard([]);
    expect(d.rewards.every((b) => b.count === 0)).toBe(true);
    expect(d.answerChars).toEqual([{ label: "≥0", count: 0 }]);
    expect(d.tokens.meanPerEpisode).toBe(0);
  });
});
