import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendScorer } from "./scorer";

// A failed test says what happened, not only the exception's class: its message and what the answer
// printed during that test, both made in the sandboxed child (the server never runs the answer's
// __str__ or its prints).

let scorer: BackendScorer;
beforeAll(async () => {
  scorer = await BackendScorer.start({ workers: 1 });
});
afterAll(async () => {
  await scorer?.close();
});

const groundTruth = "def f(x):\n    return x * 2\n";
const score = (answer: string, testCases: Record<string, string>) => scorer.score({ groundTruth, testCases, answer });

describe("failed tests' details", () => {
  it("carries the exception's message and the test's own printed output", async () => {
    const answer = [
      "def f(x):",
      "    print(f'checking {x}')",
      "    if x < 0:",
      "        raise ValueError(f'negative input: {x}')",
      "    return x * 2 if x != 3 else 7",
    ].join("\n");
    const result = await score(answer, { ok: "f(1)", neg: "f(-5)", wrong: "f(3)" });
    const [ok, neg, wrong] = result.tests;
    expect(ok).toMatchObject({ passed: true, reason: "ok" });
    expect(ok!.message).toBeUndefined();
    expect(ok!.output).toBeUndefined();
    expect(neg).toMatchObject({
      passed: false,
      reason: "exception: ValueError",
      message: "negative input: -5",
      output: "checking -5\n",
    });
    // A mismatch has no exception; what it printed is still its own, not the other tests'.
    expect(wrong).toMatchObject({
      passed: false,
      reason: "mismatch",
      output: "checking 3\n",
      expected: "6",
      actual: "7",
    });
    expect(wrong!.message).toBeUndefined();
  });

  it("caps a long message, and an exception whose __str__ fails still fails as its class", async () => {
    const answer = [
      "class Loud(Exception):",
      "    pass",
      "class Broken(Exception):",
      "    def __str__(self):",
      "        raise RuntimeError('no')",
      "def f(x):",
      "    if x == 1:",
      "        raise Loud('x' * 5000)",
      "    raise Broken()",
    ].join("\n");
    const [loud, broken] = (await score(answer, { a: "f(1)", b: "f(2)" })).tests;
    expect(loud!.reason).toBe("exception: Loud");
    expect(loud!.message!.length).toBeLessThanOrEqual(300);
    expect(loud!.message!.startsWith("xxxx")).toBe(true);
    expect(broken).toMatchObject({ passed: false, reason: "exception: Broken" });
    expect(broken!.message).toBeUndefined();
  });
});
