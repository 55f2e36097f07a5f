import { describe, expect, it } from "vitest";
import { chatTemplate, promptText } from "./chat-template";
import { advantage, criticPrompt, criticScore, criticTrainingText } from "./critic";
import { criticPairLine, policyPairLine, trlDpoLine } from "./exports";
import { bestOfKLine, bestOfKPlace, trajectoryPairs, type Sample } from "./trajectory-pairs";
import { drawTurnPairs } from "./turn-pairs";

const samples = (rewards: number[][]): Sample<string>[] =>
  rewards.flatMap((perTask, task) =>
    perTask.map((reward, sample) => ({ task, sample, reward, id: `t${task}s${sample}` })),
  );

describe("trajectory pairs", () => {
  it("backend: the first best sample against every worse one, only where the best passed every test", () => {
    const pairs = trajectoryPairs(
      "backend",
      samples([
        [0.5, 1, 1, 0],
        [0.9, 0.2, 0.9],
        [1, 1, 1],
        [Number.NaN, 1, 0.3],
      ]),
    );
    expect(pairs).toEqual([
      { task: 0, chosen: "t0s1", rejected: "t0s0" },
      { task: 0, chosen: "t0s1", rejected: "t0s3" },
      // task 1: best 0.9 < 1, no pair; task 2: all tied, no pair; task 3: the NaN sample is left out.
      { task: 3, chosen: "t3s1", rejected: "t3s2" },
    ]);
  });

  it("backend: k = 1 and all-failed tasks give nothing", () => {
    expect(trajectoryPairs("backend", samples([[1], [0]]))).toEqual([]);
    expect(trajectoryPairs("backend", samples([[0, 0, 0]]))).toEqual([]);
  });

  it("frontend: every two samples at least 0.1 apart, the higher chosen, with no floor on the best", () => {
    const pairs = trajectoryPairs(
      "frontend",
      samples([
        [0.3, 0.45, 0.35],
        [0.2, 0.2],
      ]),
    );
    expect(pairs).toEqual([
      { task: 0, chosen: "t0s1", rejected: "t0s0" },
      { task: 0, chosen: "t0s1", rejected: "t0s2" },
    ]);
    // At least 0.1 apart: exactly 0.1 counts, a hair less does not.
    expect(trajectoryPairs("frontend", samples([[0.1, 0.2]]))).toHaveLength(1);
    expect(trajectoryPairs("frontend", samples([[0.1, 0.19]]))).toHaveLength(0);
  });

  it("the official best-of-k layout (k blocks of the task list) and a run's (task, sample) give the same pairs", () => {
    const rewards = [
      [0, 1, 0.5],
      [1, 0.2, 1],
      [0.1, 0.1, 0.1],
    ];
    const tasks = rewards.length;
    const lines = Array.from({ length: tasks * 3 }, (_, n) => {
      const { task, sample } = bestOfKPlace(n, tasks);
      return { line: n, task, sample, reward: rewards[task]![sample]! };
    });
    expect(bestOfKLine(2, 1, tasks)).toBe(5);
    const fromFile = trajectoryPairs(
      "backend",
      lines.map((l) => ({ task: l.task, sample: l.sample, reward: l.reward, id: `t${l.task}s${l.sample}` })),
    );
    expect(fromFile).toEqual(trajectoryPairs("backend", samples(rewards)));
    expect(fromFile).toHaveLength(3);
  });
});

describe("critic texts and scores", () => {
  const llama = chatTemplate("llama3");
  it("writes the training text and the ranking prompt with and without the final answer", () => {
    expect(criticTrainingText("def f(): return 1", "IN", "OUT")).toBe(
      "In light that the final answer is: def f(): return 1.INOUT",
    );
    expect(criticTrainingText(null, "IN", "OUT")).toBe("INOUT");
    expect(criticPrompt(llama, "GT", "IN", "CAND")).toBe(
      "In light that the final answer is: GT.INCAND<|start_header_id|>assistant<|end_header_id|>\n\n",
    );
  });

  it("scores the tokens after the last end-of-turn token, leaving out the trailing empty header", () => {
    const tokens = [
      { token: "<|begin_of_text|>", logprob: null },
      { token: "x", logprob: -9 },
      { token: "<|eot_id|>", logprob: -9 },
      { token: "<|start_header_id|>", logprob: -1 },
      { token: "assistant", logprob: -2 },
      { token: "<|end_header_id|>", logprob: -3 },
      { token: "\n\n", logprob: -4 },
      { token: "Hi", logprob: -6 },
      // The empty header after the candidate: not scored.
      { token: "<|start_header_id|>", logprob: -50 },
      { token: "assistant", logprob: -50 },
      { token: "<|end_header_id|>", logprob: -50 },
      { token: "\n\n", logprob: -50 },
    ];
    expect(criticScore(llama, tokens)).toBeCloseTo(-16 / 5, 10);
    expect(criticScore(llama, tokens, { sum: true })).toBe(-16);
    expect(advantage(-3.2, -4)).toBeCloseTo(0.8, 10);
    // The same span cut at character offsets of the prompt that was sent (a server's answer, checked).
    let at = 0;
    const placed = tokens.map((t) => ({ ...t, start: (at += t.token.length) - t.token.length }));
    const prompt = tokens.map((t) => t.token).join("");
    expect(criticScore(llama, placed, { prompt })).toBeCloseTo(-16 / 5, 10);
    // A token split differently by the server changes nothing: offsets, not token texts, cut the span.
    const merged = [
      ...placed.slice(0, 3),
      { token: "<|start_header_id|>assistant", logprob: -3, start: placed[3]!.start },
      ...placed.slice(5),
    ];
    expect(criticScore(llama, merged, { prompt, sum: true })).toBe(-16);
    // An empty span is an error, never a score.
    expect(() =>
      criticScore(llama, placed.slice(0, 3).concat(placed.slice(8)), {
        prompt: prompt.replace("<|start_header_id|>assistant<|end_header_id|>\n\nHi", ""),
      }),
    ).toThrow(/empty/);
  });

  it("renders stored chat messages with the model family's template", () => {
    const text = promptText(llama, [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Hello" }] },
    ]);
    expect(text).toBe(
      "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
    );
    expect(promptText(chatTemplate("chatml"), [{ role: "user", content: "Hi" }])).toBe(
      "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n",
    );
  });
});

describe("turn pairs", () => {
  const state = (name: string, advantages: number[]) => ({
    state: name,
    candidates: advantages.map((advantage, i) => ({ id: `${name}${i}`, advantage })),
  });

  it("draws one of the upper half against one of the lower half, the higher chosen, k per state, seeded", () => {
    const states = [state("a", [0.5, -1, 2, 0.1]), state("b", [3, 1, 2, 0])];
    const pairs = drawTurnPairs(states, { pairsPerState: 4, seed: 7 });
    expect(pairs).toHaveLength(8);
    for (const p of pairs) {
      expect(p.chosenAdvantage).toBeGreaterThanOrEqual(p.rejectedAdvantage);
      const sorted = states
        .find((s) => s.state === p.state)!
        .candidates.map((c) => c.advantage)
        .sort((x, y) => x - y);
      // Sorted halves: chosen from the upper, rejected from the lower.
      expect(sorted.slice(2)).toContain(p.chosenAdvantage);
      expect(sorted.slice(0, 2)).toContain(p.rejectedAdvantage);
    }
    expect(drawTurnPairs(states, { pairsPerState: 4, seed: 7 })).toEqual(pairs);
    expect(drawTurnPairs(states, { pairsPerState: 4, seed: 8 })).not.toEqual(pairs);
    // Shuffled across states, not grouped.
    expect(new Set(pairs.slice(0, 4).map((p) => p.state)).size).toBe(2);
  });

  it("skips states with fewer than two ranked candidates and candidates without an advantage", () => {
    expect(drawTurnPairs([state("a", [1]), state("b", [Number.NaN, 2])])).toEqual([]);
    const odd = drawTurnPairs([state("c", [1, 2, 3])], { pairsPerState: 20, seed: 1 });
    // Lower half of three is the first one; the upper half is the other two.
    expect(odd.every((p) => p.rejectedAdvantage === 1)).toBe(true);
  });
});

describe("exports", () => {
  it("writes the critic's, the policy's and TRL's lines", () => {
    const c = { input: "I1", output: "O1" };
    const r = { input: "I2", output: "O2" };
    // openrlhf-critic: strings for either benchmark (what OpenRLHF's RewardDataset reads).
    expect(criticPairLine("strings", "GT", c, r)).toEqual({
      chosen: "In light that the final answer is: GT.I1O1",
      rejected: "In light that the final answer is: GT.I2O2",
    });
    // published-frontend-critic: the published frontend script's {input, output} sides.
    expect(criticPairLine("objects", "GT", c, r)).toEqual({
      chosen: { input: "In light that the final answer is: GT.I1", output: "O1" },
      rejected: { input: "In light that the final answer is: GT.I2", output: "O2" },
    });
    expect(policyPairLine("P", "A", "B", "<|eot_id|>", false)).toEqual({
      chosen: "PA<|eot_id|>",
      rejected: "PB<|eot_id|>",
    });
    expect(policyPairLine("P", "A", "B", "<|eot_id|>", true)).toEqual({
      prompt: "P",
      chosen: "A<|eot_id|>",
      rejected: "B<|eot_id|>",
    });
    // TRL's string format: prompt + reply is the OpenRLHF line's text, trailing whitespace kept.
    const trl = trlDpoLine("P", "A \n", "B", "<|eot_id|>");
    expect(trl).toEqual({ prompt: "P", chosen: "A \n<|eot_id|>", rejected: "B<|eot_id|>" });
    expect(trl.prompt! + trl.chosen!).toBe(policyPairLine("P", "A \n", "B", "<|eot_id|>", false).chosen);
  });
});
