import { describe, expect, it } from "vitest";
import { BENCHMARKS, benchmarks } from "@/lib/benchmarks";
import { wantsToAnswer } from "@/lib/colbench/protocol";
import { benchmarkViews } from "./index";

// The agent seat builds messages through its benchmark's views; what it sends must be what the
// benchmark's module then finds in the message (the proposal, the page, the final answer).

describe("benchmark views", () => {
  it("has views for every registered benchmark, and for nothing else", () => {
    expect(Object.keys(benchmarkViews).sort()).toEqual([...BENCHMARKS].sort());
  });

  it("backend: an attached draft and the final answer are the code the replay shows", () => {
    const { agent } = benchmarkViews.backend;
    const code = "def solution(x):\n    return x + 1\n";
    const message = agent.attach("Is this the shape you want?", code);
    expect(benchmarks.backend.proposalOf({ role: "agent", content: message })).toBe(code);
    const answer = agent.answer(code);
    expect(wantsToAnswer(answer)).toBe(true);
    expect(benchmarks.backend.proposalOf({ role: "agent", content: answer })).toBe(code);
  });

  it("frontend: an attached draft and the final answer carry the editor's page, wrapped when it lacks <html>", () => {
    const { agent } = benchmarkViews.frontend;
    const pageOf = benchmarks.frontend.episode.pageOf!;
    expect(pageOf(agent.attach("Closer?", "<body><h1>Hi</h1></body>"))).toBe(
      "<html><body><body><h1>Hi</h1></body></body></html>",
    );
    const whole = '<html lang="en"><body><p>x</p></body></html>';
    expect(pageOf(agent.attach("Closer?", whole))).toBe(whole);
    const answer = agent.answer(whole);
    expect(wantsToAnswer(answer)).toBe(true);
    expect(pageOf(answer)).toBe(whole);
  });

  it("a page benchmark's seat attaches the page by default; a code benchmark's leaves it to the person", () => {
    // A written answer (math-hard's) is the message itself, so such a seat may attach either way.
    for (const name of BENCHMARKS) {
      const kind = benchmarks[name].answer.kind;
      if (kind === "text") continue;
      expect(benchmarkViews[name].agent.attachByDefault).toBe(kind === "page");
    }
  });
});
