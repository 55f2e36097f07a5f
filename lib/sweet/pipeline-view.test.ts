import { describe, expect, it } from "vitest";
import { explainStepError, pipelineView } from "./pipeline-view";

// The training-data panel's words from counts: which step is next, why a step has nothing to work
// on, and which training files hold something.

const none = {
  episodesDone: 0,
  tasksWithSamples: 0,
  tasksWithTwoSamples: 0,
  trajectoryPairs: 0,
  states: 0,
  statesWithCandidates: 0,
  candidates: 0,
  ranked: 0,
  rankedStates: 0,
  turnPairs: 0,
  pairable: 0,
  benchmark: "backend" as const,
};

describe("the SWEET-RL pipeline view", () => {
  it("before anything: every step says why it cannot run and every export is empty with the step that fills it", () => {
    const view = pipelineView(none, "r");
    expect(view.next).toBeNull();
    expect(view.steps.map((s) => s.state)).toEqual(["blocked", "blocked", "blocked", "blocked"]);
    expect(view.steps[0]!.why).toMatch(/^no finished episode yet/);
    expect(view.steps[2]!.why).toBe("no candidates to rank: sample candidates first (step 2)");
    expect(view.exports.every((x) => x.empty)).toBe(true);
  });

  it("a best-of-1 run: no pairs (with the reason), candidates next", () => {
    const view = pipelineView({ ...none, episodesDone: 3, tasksWithSamples: 3, states: 9 });
    expect(view.steps[0]).toMatchObject({
      state: "blocked",
      why: expect.stringContaining("Best of k at 2 or more") as unknown,
    });
    expect(view.next).toBe("candidates");
    const official = view.exports.find((x) => x.format === "official")!;
    expect(official.lines).toBe(3);
    expect(official.empty).toBeUndefined();
  });

  it("a best-of-2 run whose samples all tie names the rule that found no pair", () => {
    const view = pipelineView({ ...none, episodesDone: 6, tasksWithSamples: 3, tasksWithTwoSamples: 3, states: 18 });
    expect(view.steps[0]!.why).toBe(
      "no task has a better and a worse sample: a pair is a sample that passes every test against one of the same task that does not",
    );
  });

  it("walks pairs → candidates → rank → turn pairs, naming the next step and the files that fill", () => {
    const ready = { ...none, episodesDone: 6, tasksWithSamples: 3, tasksWithTwoSamples: 3, states: 18, pairable: 3 };
    expect(pipelineView(ready).next).toBe("pairs");
    const paired = { ...ready, trajectoryPairs: 3 };
    expect(pipelineView(paired).steps[0]!.state).toBe("done");
    expect(pipelineView(paired).next).toBe("candidates");
    expect(pipelineView(paired).exports.find((x) => x.format === "openrlhf-critic")).toMatchObject({ lines: 3 });
    const sampled = { ...paired, statesWithCandidates: 18, candidates: 54 };
    expect(pipelineView(sampled).next).toBe("rank");
    expect(pipelineView(sampled).exports.find((x) => x.format === "trl-dpo")!.empty!.cli).toBe(
      "no turn pairs yet: run `colbench rank RUN --critic URL#MODEL`, then `colbench turn-pairs RUN`",
    );
    const half = { ...sampled, ranked: 20, rankedStates: 7 };
    expect(pipelineView(half).steps[2]!.state).toBe("partly");
    const ranked = { ...sampled, ranked: 54, rankedStates: 18 };
    expect(pipelineView(ranked).next).toBe("turn-pairs");
    const done = pipelineView({ ...ranked, turnPairs: 36 });
    expect(done.next).toBeNull();
    expect(done.steps.every((s) => s.state === "done")).toBe(true);
    expect(done.exports.every((x) => !x.empty && x.lines > 0)).toBe(true);
  });

  it("says in words that a server gives no log-probs", () => {
    const raw =
      "http://x/v1#m: malformed response: choices.0.logprobs: Invalid input: expected object, received undefined (gave up after 5 attempts, 7.1 s)";
    expect(explainStepError("candidates", raw)).toMatch(
      /^this server returns no log-probs for sampled text; candidates need a server that does, e\.g\. vLLM \(it answered: /,
    );
    expect(explainStepError("rank", raw)).toMatch(/^this server returns no log-probs for prompt tokens/);
    const incomplete =
      "http://x/v1#m /completions: incomplete answer: sample 0 came without the log-probs of its tokens (logprobs: 0 was sent)";
    expect(explainStepError("candidates", incomplete)).toMatch(/^this server returns no log-probs for sampled text/);
    expect(
      explainStepError(
        "rank",
        "http://x/v1#m /completions: incomplete answer: logprobs is null (the server did not score the prompt)",
      ),
    ).toMatch(/^this server returns no log-probs for prompt tokens/);
    expect(explainStepError("candidates", "connect ECONNREFUSED")).toBe("connect ECONNREFUSED");
  });
});
