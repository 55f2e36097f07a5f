import { describe, expect, it } from "vitest";
import { conversationForJudge, fillJudgePrompt, JudgeAnswerError, parseVerdict } from "./judge";
import { extractJson } from "./lenient-json";

describe("parseVerdict (CollabLLM's lenient reading of the judge's JSON)", () => {
  it("reads the published shape, with text around it", () => {
    expect(parseVerdict('{"thought": "The answer 12 matches.", "accuracy": 1}')).toEqual({
      accuracy: 1,
      thought: "The answer 12 matches.",
    });
    expect(
      parseVerdict('Here is my evaluation:\n```json\n{\n  "thought": "It says 11, not 12.",\n  "accuracy": 0\n}\n```'),
    ).toEqual({ accuracy: 0, thought: "It says 11, not 12." });
  });

  it("takes triple quotes, single quotes, booleans in any case and numbers in strings", () => {
    expect(parseVerdict(`{"thought": """It's right: 'twelve'.""", "accuracy": 1}`)).toEqual({
      accuracy: 1,
      thought: "It's right: 'twelve'.",
    });
    expect(parseVerdict("{'thought': 'ok', 'accuracy': '1'}")).toEqual({ accuracy: 1, thought: "ok" });
    expect(parseVerdict('{"thought": "no", "accuracy": FALSE}')).toEqual({ accuracy: 0, thought: "no" });
    expect(parseVerdict('{"thought": "yes", "accuracy": 1.0}')).toEqual({ accuracy: 1, thought: "yes" });
    expect(parseVerdict('{"thought": "a \\"quoted\\" word\\nand a line", "accuracy": 0,}')).toEqual({
      accuracy: 0,
      thought: 'a "quoted" word\nand a line',
    });
  });

  it.each([
    ["no JSON at all", "The answer is correct."],
    ["a missing accuracy", '{"thought": "fine"}'],
    ["a missing thought", '{"accuracy": 1}'],
    ["a rating that is not binary", '{"thought": "half right", "accuracy": 0.5}'],
    ["a rating in words", '{"thought": "x", "accuracy": "correct"}'],
    ["broken JSON", '{"thought": "unterminated, "accuracy": 1'],
    ["two objects", '{"thought": "a", "accuracy": 1} {"thought": "b", "accuracy": 0}'],
    ["braces in the wrong order", "} nothing {"],
  ])("refuses %s", (_, text) => {
    expect(() => parseVerdict(text)).toThrow(JudgeAnswerError);
  });

  it("reads nested values as the grammar allows", () => {
    expect(extractJson('x {"a": [1, -2.5e1, null, true], "b": {"c": "d"}} y')).toEqual({
      a: [1, -25, null, true],
      b: { c: "d" },
    });
  });
});

describe("the judge's prompt", () => {
  it("fills the problem, the reference solution and the conversation as JSON messages, once each", () => {
    const conversation = conversationForJudge([
      { role: "user", content: "what's {problem}?" },
      { role: "assistant", content: "It is \\boxed{4}." },
    ]);
    expect(JSON.parse(conversation)).toEqual([
      { role: "user", content: "what's {problem}?" },
      { role: "assistant", content: "It is \\boxed{4}." },
    ]);
    const filled = fillJudgePrompt('Q: {problem}\nR: {reference_solution}\nC: {conversation}\n{"accuracy": <0 or 1>}', {
      problem: " 2+2? ",
      referenceSolution: "\\boxed{4}\n",
      conversation,
    });
    expect(filled).toBe(`Q: 2+2?\nR: \\boxed{4}\nC: ${conversation}\n{"accuracy": <0 or 1>}`);
  });
});
