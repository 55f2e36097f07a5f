import { describe, expect, it } from "vitest";
import { codeOfTurn, stripFences } from "./turn-code";

describe("stripFences (the benchmark's answer rule)", () => {
  it("keeps what follows ```python up to the next fence", () => {
    expect(stripFences("Sure:\n```python\ndef f():\n    return 1\n```\nthanks")).toBe("\ndef f():\n    return 1\n");
  });
  it("otherwise keeps what lies between the first two fences", () => {
    expect(stripFences("```\nx = 1\n```")).toBe("\nx = 1\n");
  });
  it("takes everything after a lone opening fence, and leaves fence-free text alone", () => {
    expect(stripFences("```python\ndef g(): pass")).toBe("\ndef g(): pass");
    expect(stripFences("def h(): pass")).toBe("def h(): pass");
  });
});

describe("codeOfTurn", () => {
  it("gives a backend final answer without its marker and fences", () => {
    const turn = { role: "agent" as const, content: "I WANT TO ANSWER:\n```python\ndef f(x):\n    return x\n```" };
    expect(codeOfTurn(turn, "backend")).toBe("def f(x):\n    return x\n");
  });
  it("gives the last code block the agent showed mid-dialogue, or nothing", () => {
    const shown = { role: "agent" as const, content: "Maybe:\n```python\na = 1\n```\nor:\n```python\na = 2\n```\nWhich one?" };
    expect(codeOfTurn(shown, "backend")).toBe("a = 2\n");
    expect(codeOfTurn({ role: "agent", content: "What should it return?" }, "backend")).toBeNull();
  });
  it("gives a frontend turn's page, and nothing for the simulator's turns", () => {
    expect(codeOfTurn({ role: "agent", content: "x", html: "<html></html>" }, "frontend")).toBe("<html></html>");
    expect(codeOfTurn({ role: "simulator", content: "```python\nx\n```" }, "backend")).toBeNull();
  });
});
