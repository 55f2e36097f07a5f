import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { chatTemplate, promptText } from "../sweet/chat-template";
import { criticPrompt, criticScore } from "../sweet/critic";
import { CpuModel } from "./model/cpu-model";
import { LocalScorer } from "./model/scorer";
import { ModelTokenizer } from "./model/tokenizer";
import { folderSource } from "./node/folder-source";
import { scoreEpisode } from "./score-episode";

// What the replay's "score turns in this browser" computes, on the CPU path: a turn with candidates
// is scored candidate by candidate, a turn without them by its own output; each number is what the
// SWEET-RL rules give one prompt at a time.

const fixtures = path.resolve(import.meta.dirname, "fixtures");
let critic: LocalScorer;
let policy: LocalScorer;
const open = async (name: string) => {
  const source = folderSource(path.join(fixtures, name));
  return new LocalScorer(await CpuModel.load(source), await ModelTokenizer.load(source), name);
};

beforeAll(async () => {
  critic = await open("llama-tiny");
  policy = await open("llama-tiny-bf16");
});

describe("scoreEpisode", () => {
  it("scores turns without candidates by their output, and turns with them candidate by candidate", async () => {
    const prompt = [{ role: "user", content: "Write f, please." }];
    const inputs = {
      episodeId: 1,
      groundTruth: "def f(): return 1",
      turns: [
        { index: 1, prompt, output: "OUTPUT: what should f return?", candidates: [] },
        { index: 3, prompt, output: "OUTPUT: def f(): return 1", candidates: [{ index: 0, text: "OUTPUT: def f(): return 1" }, { index: 1, text: "OUTPUT: def f(): return 2" }] },
      ],
    };
    const ticks: number[] = [];
    const scored = await scoreEpisode(inputs, critic, policy, { template: "llama3", onTurn: (done) => ticks.push(done) });
    expect(ticks).toEqual([0, 1, 2]);
    const llama = chatTemplate("llama3");
    const one = async (text: string) => {
      const input = promptText(llama, prompt);
      const c = criticScore(llama, await critic.promptLogprobs(criticPrompt(llama, inputs.groundTruth, input, text)));
      const own = await policy.textLogprobs(input, text);
      const mean = own.tokens.reduce((a, t) => a + t.logprob, 0) / own.tokens.length;
      return { criticScore: c, policyMean: mean, advantage: c - mean };
    };
    expect(scored[0]!.candidates).toBeUndefined();
    const want0 = await one(inputs.turns[0]!.output);
    expect(scored[0]!.turn).toBe(1);
    expect(scored[0]!.criticScore).toBeCloseTo(want0.criticScore, 9);
    expect(scored[0]!.policyMean).toBeCloseTo(want0.policyMean, 9);
    expect(scored[0]!.advantage).toBeCloseTo(want0.advantage, 9);
    expect(scored[1]!.candidates).toHaveLength(2);
    for (const c of scored[1]!.candidates!) {
      const want = await one(inputs.turns[1]!.candidates[c.index]!.text);
      expect(c.advantage).toBeCloseTo(want.advantage, 9);
    }
    // The turn's own advantage is its candidate 0's; the two candidates differ.
    expect(scored[1]!.advantage).toBe(scored[1]!.candidates![0]!.advantage);
    expect(scored[1]!.candidates![0]!.advantage).not.toBeCloseTo(scored[1]!.candidates![1]!.advantage!, 3);
  });
});
