import { describe, expect, it } from "vitest";
import { describeFailure, groupFailures, type EpisodeFailure } from "./failure";

// The run page's failures by reason: the episodes of one outage are one group whatever each waited,
// a different outage or error is another, and the groups come most frequent first with a few examples.

const outage = (since: string, elapsedMs: number, moves: number, downMs = 30_000): { failure: EpisodeFailure } => ({
  failure: {
    message: "server down",
    side: "agent",
    moves,
    server: {
      server: "http://127.0.0.1:9/v1#m",
      path: "/chat/completions",
      cause: "connect ECONNREFUSED 127.0.0.1:9",
      attempts: elapsedMs > 1000 ? 8 : 1,
      elapsedMs,
      downSince: since,
      downMs,
    },
  },
});

describe("failures grouped by reason", () => {
  it("counts one outage's never-started episodes together, apart from other outages and errors", () => {
    const first = "2026-11-28T10:00:00.000Z";
    const second = "2026-11-28T11:30:00.000Z";
    const episodes = [
      { id: 1, details: outage(first, 31_400, 3) },
      { id: 2, details: outage(first, 0, 0) },
      { id: 3, details: outage(first, 2, 0, 42_000) },
      { id: 4, details: { error: "the scorer crashed" } },
      { id: 5, details: outage(first, 5, 0, 65_000) },
      { id: 6, details: outage(second, 1, 0) },
      { id: 7, details: outage(first, 0, 0) },
      { id: 8, details: null },
    ];
    // Each episode's own line differs (its wait, the outage's length by then); the reason does not.
    expect(
      new Set([2, 3, 5].map((i) => describeFailure((episodes[i - 1]!.details as { failure: EpisodeFailure }).failure)))
        .size,
    ).toBe(3);
    const groups = groupFailures(episodes, 3);
    expect(groups).toEqual([
      {
        reason:
          "the agent's model server http://127.0.0.1:9/v1#m was down (since 10:00:00 UTC: connect ECONNREFUSED 127.0.0.1:9); never started",
        count: 4,
        examples: [2, 3, 5],
      },
      {
        reason:
          "the agent's model server http://127.0.0.1:9/v1#m was down (since 10:00:00 UTC: connect ECONNREFUSED 127.0.0.1:9)",
        count: 1,
        examples: [1],
      },
      { reason: "the scorer crashed", count: 1, examples: [4] },
      {
        reason:
          "the agent's model server http://127.0.0.1:9/v1#m was down (since 11:30:00 UTC: connect ECONNREFUSED 127.0.0.1:9); never started",
        count: 1,
        examples: [6],
      },
      { reason: "no reason was recorded", count: 1, examples: [8] },
    ]);
  });
});
