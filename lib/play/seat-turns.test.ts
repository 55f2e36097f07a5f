import { describe, expect, it } from "vitest";
import type { TurnRecord } from "../colbench/episode";
import type { AwaitedMove } from "./seats";
import { awaitingFor, parseSeat, turnFor } from "./seat-turns";

const simulatorTurn: TurnRecord = {
  index: 2,
  role: "simulator",
  content: "Round to cents.",
  rawOutput: "Round to cents. (the reference does round(x, 2))",
  prompt: [{ role: "user", content: "HIDDEN: def secret(): return 42" }],
  usage: { promptTokens: 10, completionTokens: 3 },
};
const agentTurn: TurnRecord = {
  index: 3,
  role: "agent",
  content: "Here:",
  html: "<html></html>",
  renderId: "a".repeat(64),
  prompt: [{ role: "user", content: "task" }],
  advantage: 0.25,
};

describe("what each seat is sent", () => {
  it("gives the agent seat only the dialogue text and its own pages", () => {
    expect(turnFor("agent", simulatorTurn)).toEqual({ index: 2, role: "simulator", content: "Round to cents." });
    expect(turnFor("agent", agentTurn)).toEqual({
      index: 3,
      role: "agent",
      content: "Here:",
      html: "<html></html>",
      renderId: "a".repeat(64),
    });
    expect(JSON.stringify(turnFor("agent", simulatorTurn))).not.toContain("secret");
  });
  it("gives the simulator seat and viewers prompts, raw output and advantages", () => {
    expect(turnFor("simulator", simulatorTurn)).toMatchObject({
      rawOutput: simulatorTurn.rawOutput,
      prompt: simulatorTurn.prompt,
    });
    expect(turnFor("viewer", agentTurn)).toMatchObject({ advantage: 0.25, prompt: agentTurn.prompt });
  });
  it("tells the agent seat whose move it is but not what the simulator is shown", () => {
    const move: AwaitedMove = {
      runId: 1,
      episodeId: 2,
      role: "simulator",
      input: {
        task: {
          benchmark: "frontend",
          problemDescription: "p",
          groundTruth: "<html>target</html>",
          hiddenInformation: null,
          testCases: null,
        },
        dialogue: [],
        agentRender: { id: "b".repeat(64), png: Buffer.alloc(0) },
        targetRender: { id: "c".repeat(64), png: Buffer.alloc(0) },
      },
    };
    expect(awaitingFor("agent", move)).toEqual({ role: "simulator" });
    expect(awaitingFor("simulator", move)).toEqual({
      role: "simulator",
      agentRenderId: "b".repeat(64),
      targetRenderId: "c".repeat(64),
    });
  });
  it("treats an unknown seat as a viewer", () => {
    expect(parseSeat("admin")).toBe("viewer");
    expect(parseSeat("agent")).toBe("agent");
  });
});
