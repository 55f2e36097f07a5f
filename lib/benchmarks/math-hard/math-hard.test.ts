import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { runEpisode, type TurnRecord } from "../../colbench/episode";
import type { Agent, Simulator } from "../../colbench/roles";
import { boxedCheck } from "./boxed";
import { MATH_HARD_AGENT_TURNS, mathHard, TERMINATION_SIGNAL } from "./index";
import { MATH_HARD_DESCRIPTION } from "./task";

// The module tested as an object (the registry line is added by the lead).

const samples = fs
  .readFileSync(new URL("../../../samples/math-hard.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as unknown);

describe("math-hard task records", () => {
  it("reads CollabLLM's single-turn record and writes it back", () => {
    const record = {
      single_turn_prompt: "What is $2+3$?",
      single_turn_completion: "It is $\\boxed{5}$.",
      single_turn_metadata: { level: "Level 5", type: "Algebra" },
    };
    const parsed = mathHard.task.parse(record);
    expect(parsed).toEqual({
      ok: true,
      task: {
        benchmark: "math-hard",
        problemDescription: MATH_HARD_DESCRIPTION,
        hiddenInformation: "What is $2+3$?",
        groundTruth: "It is $\\boxed{5}$.",
        testCases: null,
      },
    });
    if (!parsed.ok) throw new Error("unreachable");
    expect(mathHard.task.official(parsed.task)).toEqual({
      single_turn_prompt: "What is $2+3$?",
      single_turn_completion: "It is $\\boxed{5}$.",
    });
    expect(mathHard.task.recognizes(record)).toBe(true);
  });

  it("reads lighteval/MATH-Hard's raw line into the same task", () => {
    const raw = { problem: "What is $2+3$?", level: "Level 5", type: "Algebra", solution: "It is $\\boxed{5}$." };
    const parsed = mathHard.task.parse(raw);
    expect(parsed.ok && parsed.task).toMatchObject({
      hiddenInformation: "What is $2+3$?",
      groundTruth: "It is $\\boxed{5}$.",
    });
    expect(mathHard.task.recognizes(raw)).toBe(true);
    expect(mathHard.task.recognizes({ problem_description: "x", ground_truth: "y" })).toBe(false);
  });

  it("names the record's fields in its problems", () => {
    const bad = mathHard.task.parse({ single_turn_prompt: " ", single_turn_completion: 3 });
    expect(bad.ok ? [] : bad.problems.map((p) => p.field)).toEqual(["single_turn_prompt", "single_turn_completion"]);
    const raw = mathHard.task.parse({ problem: "x" });
    expect(raw.ok ? [] : raw.problems.map((p) => p.field)).toEqual(["solution"]);
  });

  it("has sample tasks that parse, each with a boxed reference answer", () => {
    expect(samples.length).toBeGreaterThanOrEqual(6);
    for (const sample of samples) {
      const parsed = mathHard.task.parse(sample);
      expect(parsed.ok).toBe(true);
      if (parsed.ok)
        expect(boxedCheck(parsed.task.groundTruth, parsed.task.groundTruth)).toMatchObject({
          equivalent: true,
          reference: expect.any(String) as unknown,
        });
    }
  });

  it("points at lighteval/MATH-Hard's seven subject files of a split", () => {
    const source = mathHard.official;
    expect([source.file("test"), ...source.moreFiles("test")]).toEqual(
      [
        "algebra",
        "counting_and_probability",
        "geometry",
        "intermediate_algebra",
        "number_theory",
        "prealgebra",
        "precalculus",
      ].map((s) => `test/${s}.jsonl`),
    );
  });
});

const task = {
  benchmark: "math-hard",
  problemDescription: MATH_HARD_DESCRIPTION,
  hiddenInformation: "What is $2+3$?",
  groundTruth: "$\\boxed{5}$",
  testCases: null,
};

function play(simulatorSays: (turn: number) => string, agentSays = (turn: number) => `reply ${turn}`) {
  let simulatorTurns = 0;
  const simulator: Simulator = {
    kind: "model",
    name: "sim",
    reply: async () => ({ text: simulatorSays(simulatorTurns++) }),
  };
  const agent: Agent = { kind: "model", name: "agent", act: async (input) => ({ text: agentSays(input.turn) }) };
  const stored: TurnRecord[] = [];
  return runEpisode({ task, rules: mathHard.episode, agent, simulator, persist: async (t) => void stored.push(t) });
}

describe("math-hard episodes", () => {
  it("the simulated user opens and ends the dialogue with CollabLLM's marker; the answer is the last agent message", async () => {
    const outcome = await play(
      (turn) => (turn === 0 ? "hey can u help with a sum" : turn === 1 ? "its 2+3" : TERMINATION_SIGNAL),
      (turn) => (turn === 0 ? "Sure, which one?" : "That is \\boxed{5}. I WANT TO ANSWER: ignored"),
    );
    expect(outcome.turns.map((t) => t.role)).toEqual(["simulator", "agent", "simulator", "agent", "simulator"]);
    expect(outcome.turns[0]!.content).toBe("hey can u help with a sum");
    expect(outcome.turns.at(-1)!.content).toBe(TERMINATION_SIGNAL);
    expect(outcome.answer).toBe("That is \\boxed{5}. I WANT TO ANSWER: ignored");
    expect(outcome.agentTurns).toBe(2);
  });

  it("stops after CollabLLM's budget of 14 messages (7 agent turns) when the user never ends it", async () => {
    const outcome = await play(() => "go on");
    expect(MATH_HARD_AGENT_TURNS).toBe(7);
    expect(outcome.turns).toHaveLength(14);
    expect(outcome.turns.at(-1)).toMatchObject({ role: "agent", content: "reply 6" });
  });

  it("does not cut a long user message", async () => {
    const long = "x".repeat(5000);
    const outcome = await play((turn) => (turn === 0 ? long : TERMINATION_SIGNAL));
    expect(outcome.turns[0]!.content).toBe(long);
  });
});

describe("math-hard's reward and pairs", () => {
  it("prints accuracy as a percent and a verdict", () => {
    expect(mathHard.reward.format(0.625)).toBe("63%");
    expect(mathHard.reward.sentence(1)).toBe("judged correct");
    expect(mathHard.reward.sentence(0)).toBe("judged wrong");
    expect(mathHard.reward.hasSuccess).toBe(true);
  });

  it("pairs the first correct sample with each wrong one", () => {
    expect(mathHard.pairRule.pairs([0, 1, 0, 1])).toEqual([
      [1, 0],
      [1, 2],
    ]);
    expect(mathHard.pairRule.pairs([0, 0])).toEqual([]);
    expect(mathHard.pairRule.pairs([1, 1])).toEqual([]);
  });

  it("names its judge before a run starts", () => {
    expect(mathHard.describeRun({ judge: { baseUrl: "http://localhost:9/v1", model: "judge-model" } })).toEqual([
      "judge: http://localhost:9/v1#judge-model (CollabLLM's accuracy, 0 or 1; MATH's boxed-answer check recorded beside it)",
    ]);
    expect(() => mathHard.describeRun({})).toThrow();
  });
});

describe("comparing math-hard runs", () => {
  it("says two runs judged by different judges do not compare", () => {
    const judge = (model: string) => ({ judge: { baseUrl: "http://localhost:9/v1", model } });
    expect(mathHard.scoreMismatches({ name: "a", config: judge("j1") }, { name: "b", config: judge("j1") })).toEqual(
      [],
    );
    expect(mathHard.scoreMismatches({ name: "a", config: judge("j1") }, { name: "b", config: judge("j2") })).toEqual([
      expect.objectContaining({ by: "judge", reason: expect.stringContaining("http://localhost:9/v1#j2") as unknown }),
    ]);
  });
});
