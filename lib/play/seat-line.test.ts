import { describe, expect, it } from "vitest";
import { scoredByOf } from "../benchmarks/reward-sentence";
import { commonRunConfig } from "../benchmarks/testing/run-config";
import { seatLine, type SeatLineInput } from "./seat-line";

const playing: SeatLineInput = {
  connected: true,
  status: "running",
  reward: null,
  playing: true,
  awaitingRole: null,
  waiting: null,
  failureText: null,
};
const wait = {
  server: "http://127.0.0.1:9/v1",
  cause: "connect ECONNREFUSED 127.0.0.1:9",
  since: "2026-11-27T03:40:00.000Z",
};
const at = (iso: string) => new Date(iso).getTime();

describe("seatLine", () => {
  it("says whose move it is", () => {
    expect(seatLine({ ...playing, awaitingRole: "agent", agentTurn: 2 }, "agent", "collaborator", "backend")).toEqual({
      text: "Your move (agent turn 3 of 10).",
      state: "your-move",
      tone: "move",
    });
    expect(seatLine({ ...playing, awaitingRole: "simulator" }, "simulator", "agent", "backend").text).toBe(
      "Your move: reply to the agent.",
    );
    expect(seatLine({ ...playing, awaitingRole: "agent" }, "simulator", "agent", "backend")).toEqual({
      text: "Waiting for the agent…",
      state: "waiting",
      tone: "plain",
    });
  });

  it("names the model server the other side waits for, its error and since when", () => {
    const line = seatLine({ ...playing, waiting: wait }, "simulator", "agent", "backend", at("2026-11-27T03:40:42Z"));
    expect(line).toEqual({
      text: "The agent is waiting for the model server (http://127.0.0.1:9/v1: connect ECONNREFUSED 127.0.0.1:9, since 03:40:00 UTC, 42 s ago). The episode goes on by itself when the server answers.",
      state: "waiting",
      tone: "notice",
    });
  });

  it("puts this seat's own move, the end and a stopped run before a wait", () => {
    expect(
      seatLine({ ...playing, waiting: wait, awaitingRole: "simulator" }, "simulator", "agent", "backend").state,
    ).toBe("your-move");
    expect(seatLine({ ...playing, waiting: wait, playing: false }, "simulator", "agent", "backend").text).toMatch(
      /^This episode is not playing now/,
    );
    expect(
      seatLine(
        { ...playing, waiting: wait, status: "failed", failureText: "the agent's model server gave up" },
        "simulator",
        "agent",
        "backend",
      ),
    ).toEqual({
      text: "The episode failed: the agent's model server gave up.",
      state: "ended",
      tone: "failed",
    });
  });

  it("scores the end by benchmark", () => {
    expect(seatLine({ ...playing, status: "done", reward: 0.7 }, "agent", "collaborator", "backend").text).toBe(
      "The episode is over: 70% of the hidden tests passed.",
    );
    expect(seatLine({ ...playing, status: "done", reward: 0.8123 }, "agent", "collaborator", "frontend").text).toBe(
      "The episode is over: similarity 0.812.",
    );
    expect(seatLine({ ...playing, connected: false }, "agent", "collaborator", "frontend").text).toBe("Connecting…");
  });

  it("names the embedder beside a similarity, with the paper warning for the weight-free one", () => {
    const by = (config: unknown) => scoredByOf("frontend", config);
    const done = { ...playing, status: "done", reward: 1 };
    const paper = { name: "paper", browser: "chromium", placeholders: "generated" };
    const free = commonRunConfig("frontend", { render: paper, embedder: "default" });
    const clip = commonRunConfig("frontend", {
      render: paper,
      embedder: "clip-vit-b32",
      clipPath: "openai/clip-vit-base-patch32",
    });
    expect(seatLine({ ...done, scoredBy: by(free) }, "agent", "collaborator", "frontend").text).toBe(
      "The episode is over: similarity 1.000 (by default-v2 · weight-free, not comparable with the paper).",
    );
    expect(seatLine({ ...done, scoredBy: by(clip) }, "agent", "collaborator", "frontend").text).toBe(
      "The episode is over: similarity 1.000 (by clip-vit-b32 · openai/clip-vit-base-patch32).",
    );
    // Backend rewards name nothing: a share of tests passed compares across runs.
    expect(scoredByOf("backend", { benchmark: "backend" })).toBeNull();
  });
});
