import { describe, expect, it } from "vitest";
import { runEpisode, type PageRenderer, type TurnRecord } from "./episode";
import type { Agent, AgentTurnInput, HiddenTask, Simulator, SimulatorTurnInput } from "./roles";
import { ReplayAgent, ReplaySimulator } from "../models/replay";
import { backend } from "../benchmarks/backend";
import { frontend } from "../benchmarks/frontend";

const backendTask: HiddenTask = {
  benchmark: "backend",
  problemDescription: "Write add. The signature of the function is: def add(a, b)",
  groundTruth: "def add(a, b):\n    return a + b",
  hiddenInformation: "def add(a, b):\n    return a + b",
  testCases: [{ name: "test1", expression: "add(1, 2)" }],
};

const frontendTask: HiddenTask = {
  benchmark: "frontend",
  problemDescription: "A bakery page",
  groundTruth: "<html><body class='bg-yellow-100'>Bakery</body></html>",
  hiddenInformation: null,
  testCases: null,
};

class ScriptAgent implements Agent {
  readonly kind = "model";
  readonly name = "script";
  seen: AgentTurnInput[] = [];
  constructor(private readonly lines: string[]) {}
  async act(input: AgentTurnInput) {
    this.seen.push(structuredClone(input));
    return { text: this.lines[input.turn] ?? this.lines[this.lines.length - 1]!, prompt: { turn: input.turn } };
  }
}

class EchoSimulator implements Simulator {
  readonly kind = "model";
  readonly name = "echo";
  seen: SimulatorTurnInput[] = [];
  constructor(private readonly length = 10) {}
  async reply(input: SimulatorTurnInput) {
    this.seen.push(input);
    return { text: `reply ${input.dialogue.length} `.padEnd(this.length, "z") };
  }
}

const memory = () => {
  const stored: TurnRecord[] = [];
  return { stored, persist: async (turn: TurnRecord) => void stored.push(turn) };
};

describe("a backend episode", () => {
  it("opens with the description, alternates, and ends on the marker with the code after it", async () => {
    const agent = new ScriptAgent([
      "Which numbers?",
      "THOUGHT: ok\nOUTPUT: Integers?",
      "I WANT TO ANSWER:\ndef add(a, b):\n    return a + b",
    ]);
    const simulator = new EchoSimulator(600);
    const { stored, persist } = memory();
    const outcome = await runEpisode({ task: backendTask, rules: backend.episode, agent, simulator, persist });
    expect(stored.map((t) => t.role)).toEqual(["simulator", "agent", "simulator", "agent", "simulator", "agent"]);
    expect(stored[0]!.content).toBe(backendTask.problemDescription);
    expect(stored[3]!.content).toBe(" Integers?");
    expect(stored[3]!.rawOutput).toBe("THOUGHT: ok\nOUTPUT: Integers?");
    // Simulator replies are cut to 400 characters; the uncut text is kept as raw output.
    expect(stored[2]!.content).toHaveLength(400);
    expect(stored[2]!.rawOutput).toHaveLength(600);
    expect(outcome.answer).toBe("\ndef add(a, b):\n    return a + b");
    expect(outcome.agentTurns).toBe(3);
    expect(stored[1]!.prompt).toEqual({ turn: 0 });
    // The agent never sees hidden parts of the task.
    expect(JSON.stringify(agent.seen)).not.toContain('return a + b"');
    expect(Object.keys(agent.seen[0]!.task)).toEqual(["benchmark", "problemDescription"]);
    expect(simulator.seen[0]!.task.hiddenInformation).toBe(backendTask.hiddenInformation);
  });

  it("ends after 10 agent turns without the marker, taking the 10th message as the answer", async () => {
    const agent = new ScriptAgent(Array.from({ length: 12 }, (_, i) => `question ${i + 1}`));
    const { stored, persist } = memory();
    const outcome = await runEpisode({
      task: backendTask,
      rules: backend.episode,
      agent,
      simulator: new EchoSimulator(),
      persist,
    });
    expect(outcome.agentTurns).toBe(10);
    expect(stored).toHaveLength(20);
    expect(stored[19]!.role).toBe("agent");
    expect(outcome.answer).toBe("question 10");
  });

  it("continues an interrupted episode from its stored turns without repeating any", async () => {
    const lines = ["q1", "q2", "I WANT TO ANSWER: def add(a, b): return a + b"];
    const first = memory();
    const failing: Simulator = {
      kind: "model",
      name: "dies",
      reply: async (input) => {
        if (input.dialogue.length >= 4) throw new Error("server went away");
        return { text: "fine" };
      },
    };
    await expect(
      runEpisode({
        task: backendTask,
        rules: backend.episode,
        agent: new ScriptAgent(lines),
        simulator: failing,
        persist: first.persist,
      }),
    ).rejects.toThrow("server went away");
    expect(first.stored).toHaveLength(4);
    const second = memory();
    const agent = new ScriptAgent(lines);
    const outcome = await runEpisode({
      task: backendTask,
      rules: backend.episode,
      agent,
      simulator: new EchoSimulator(),
      persist: second.persist,
      resumeFrom: first.stored,
    });
    expect(second.stored.map((t) => t.index)).toEqual([4, 5]);
    expect(agent.seen.map((s) => s.turn)).toEqual([2]);
    expect(outcome.turns).toHaveLength(6);
    expect(outcome.answer).toBe(" def add(a, b): return a + b");
  });

  it("replays a stored trajectory turn for turn", async () => {
    const original = memory();
    const lines = ["q1", "I WANT TO ANSWER: x"];
    await runEpisode({
      task: backendTask,
      rules: backend.episode,
      agent: new ScriptAgent(lines),
      simulator: new EchoSimulator(),
      persist: original.persist,
    });
    const replayed = memory();
    await runEpisode({
      task: backendTask,
      rules: backend.episode,
      agent: new ReplayAgent(
        original.stored.filter((t) => t.role === "agent").map((t) => ({ text: t.rawOutput!, prompt: t.prompt })),
      ),
      simulator: new ReplaySimulator(
        original.stored
          .filter((t) => t.role === "simulator")
          .slice(1)
          .map((t) => t.content),
      ),
      persist: replayed.persist,
    });
    expect(replayed.stored).toEqual(original.stored);
  });
});

describe("a frontend episode", () => {
  const renderer = (): PageRenderer & { calls: string[] } => {
    const calls: string[] = [];
    return {
      calls,
      async render(html: string) {
        calls.push(html);
        return { id: `r${html.length}`, png: Buffer.from(html) };
      },
    };
  };

  it("renders each proposal for the simulator and answers with the last rendered page", async () => {
    const agent = new ScriptAgent([
      "Thinking.\nOUTPUT: <html><body>v1</body></html>",
      "No page this time, just a question?",
      "I WANT TO ANSWER: <html><body>final</body></html>",
    ]);
    const simulator = new EchoSimulator(1200);
    const pages = renderer();
    const { stored, persist } = memory();
    const outcome = await runEpisode({
      task: frontendTask,
      rules: frontend.episode,
      agent,
      simulator,
      persist,
      renderer: pages,
    });
    expect(simulator.seen[0]!.agentRender?.png.toString()).toBe("<html><body>v1</body></html>");
    expect(simulator.seen[0]!.targetRender?.png.toString()).toBe(frontendTask.groundTruth);
    expect(simulator.seen[1]!.agentRender).toBeNull();
    expect(stored[2]!.content).toHaveLength(1000);
    expect(stored[1]!.html).toBe("<html><body>v1</body></html>");
    expect(stored[1]!.renderId).toBe("r28");
    expect(outcome.answer).toBe("<html><body>final</body></html>");
    expect(outcome.answerRenderId).toBe(`r${"<html><body>final</body></html>".length}`);
  });

  it("has no answer when the agent never proposed a page", async () => {
    const outcome = await runEpisode({
      task: frontendTask,
      rules: frontend.episode,
      agent: new ScriptAgent(["I WANT TO ANSWER: I cannot do this"]),
      simulator: new EchoSimulator(),
      persist: memory().persist,
      renderer: renderer(),
    });
    expect(outcome.answer).toBeNull();
  });
});

describe("a benchmark's own dialogue rules", () => {
  // The shape of a benchmark whose simulated human opens, ends the chat itself, and has no answer marker.
  const rules = {
    replyLimit: 50,
    simulatorOpens: true,
    simulatorEnds: (content: string) => content.includes("[[DONE]]"),
    agentEnds: () => false,
    maxAgentTurns: 3,
    finalAnswer: (turns: readonly TurnRecord[]) => ({
      answer: turns.filter((t) => t.role === "agent").at(-1)?.content ?? null,
      answerRenderId: null,
    }),
  };

  class ScriptSimulator implements Simulator {
    readonly kind = "model";
    readonly name = "script";
    seen: SimulatorTurnInput[] = [];
    constructor(private readonly lines: string[]) {}
    async reply(input: SimulatorTurnInput) {
      this.seen.push(structuredClone({ ...input, signal: undefined }));
      return { text: this.lines[this.seen.length - 1] ?? "more" };
    }
  }

  it("lets the simulator open from an empty dialogue and end it, the answer marker meaning nothing", async () => {
    const simulator = new ScriptSimulator(["I need help with a sum.", "It is 2 + 2.", "Thanks! [[DONE]]"]);
    const agent = new ScriptAgent(["What sum?", "I WANT TO ANSWER: 4", "It is 4."]);
    const { stored, persist } = memory();
    const outcome = await runEpisode({ task: backendTask, rules, agent, simulator, persist });
    expect(simulator.seen[0]!.dialogue).toEqual([]);
    expect(stored.map((t) => [t.role, t.content])).toEqual([
      ["simulator", "I need help with a sum."],
      ["agent", "What sum?"],
      ["simulator", "It is 2 + 2."],
      ["agent", "I WANT TO ANSWER: 4"],
      ["simulator", "Thanks! [[DONE]]"],
    ]);
    expect(outcome.answer).toBe("I WANT TO ANSWER: 4");
  });

  it("ends at the benchmark's own turn budget and cuts replies at its limit", async () => {
    const simulator = new ScriptSimulator(["x".repeat(80)]);
    const { stored, persist } = memory();
    const outcome = await runEpisode({
      task: backendTask,
      rules,
      agent: new ScriptAgent(["go on"]),
      simulator,
      persist,
    });
    expect(stored.filter((t) => t.role === "agent")).toHaveLength(3);
    expect(stored.at(-1)!.role).toBe("agent");
    expect(stored[0]!.content).toHaveLength(50);
    expect(outcome.agentTurns).toBe(3);
  });
});
