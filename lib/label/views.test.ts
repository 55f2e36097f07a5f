import { describe, expect, it } from "vitest";
import type { ItemContent } from "../store/queues";
import { differingSpan } from "./differ";
import { pairView } from "./views";

const answer = "a".repeat(64);
const target = "b".repeat(64);

const frontend: ItemContent = {
  id: 9,
  queueId: 1,
  kind: "trajectory",
  benchmark: "frontend",
  taskId: 3,
  gold: "a",
  task: {
    problemDescription: "A landing page for a bakery",
    groundTruth: "<html>SECRET target page</html>",
    testCases: null,
  },
  episodes: {
    a: {
      answer: "<html>mine</html>",
      reward: 0.8,
      details: { answerRender: answer, targetRender: target, reward: 0.8 },
      turns: [{ index: 0, role: "simulator", content: "A landing page", html: null, renderId: null }],
    },
    b: {
      answer: "<html>other</html>",
      reward: 0.4,
      details: { answerRender: answer.replace(/a/g, "c"), targetRender: target },
      turns: [],
    },
  },
};

describe("pairView", () => {
  it("keeps a frontend pair's target page out unless the queue shows hidden information", () => {
    const blind = JSON.stringify(pairView(frontend, { leftIsA: true, hidden: false, hidesScores: false }));
    expect(blind).not.toContain(target);
    expect(blind).not.toContain("SECRET");
    expect(blind).not.toMatch(/"(gold|reward|sourceChoice)"/);
    expect(blind).toContain(answer);
    const shown = pairView(frontend, { leftIsA: false, hidden: true, hidesScores: false });
    expect(shown.hidden?.targetRender).toBe(target);
    // leftIsA false: b is on the left.
    expect(shown.left?.answer).toBe("<html>other</html>");
  });
});

const backend: ItemContent = {
  id: 10,
  queueId: 2,
  kind: "trajectory",
  benchmark: "backend",
  taskId: 4,
  gold: null,
  task: {
    problemDescription: "Write add(x, y)",
    groundTruth: "def add(x, y): return x + y",
    testCases: [{ expression: "assert add(1, 2) == 3" }] as never,
  },
  episodes: {
    a: {
      answer: "def add(x, y): return x + y",
      reward: 1,
      details: { reward: 1, tests: [{ name: "t1", expression: "assert add(1, 2) == 3", passed: true, reason: "ok" }] },
      turns: [],
    },
    b: {
      answer: "def add(x, y): return x - y",
      reward: 0,
      details: {
        reward: 0,
        tests: [
          {
            name: "t1",
            expression: "assert add(1, 2) == 3",
            passed: false,
            reason: "AssertionError",
            expected: "3",
            actual: "-1",
          },
        ],
      },
      turns: [],
    },
  },
};

describe("pairView of a queue that hides automatic scores", () => {
  it("carries no per-test pass/fail and no reward on either side; a normal queue's view still does", () => {
    for (const hidden of [false, true]) {
      const plain = pairView(backend, { leftIsA: true, hidden, hidesScores: false });
      expect(plain.left?.tests?.map((t) => t.passed)).toEqual([true]);
      expect(plain.right?.tests?.map((t) => t.passed)).toEqual([false]);
      const blind = pairView(backend, { leftIsA: true, hidden, hidesScores: true });
      const text = JSON.stringify(blind);
      expect(text).not.toMatch(/"(passed|reward|similarity|expected|actual|reason)"/);
      expect([blind.left?.tests, blind.right?.tests]).toEqual([undefined, undefined]);
      expect(blind.left?.answer).toBe("def add(x, y): return x + y");
      expect(blind.scoresHidden).toBe(true);
      // Hidden information is the task's, not a score: a queue may show it and still hide the scores.
      expect(blind.hidden?.groundTruth).toBe(hidden ? "def add(x, y): return x + y" : undefined);
    }
  });

  it("keeps a frontend answer's own render: the page is what is judged", () => {
    const view = pairView(frontend, { leftIsA: true, hidden: false, hidesScores: true });
    expect(view.left?.render).toBe(answer);
    expect(JSON.stringify(view)).not.toMatch(/"reward"|0\.8/);
  });
});

describe("differingSpan", () => {
  it("finds the common start and end, never overlapping", () => {
    expect(differingSpan("I will ask about x.", "I will answer now.")).toEqual({ prefix: 8, suffix: 1 });
    expect(differingSpan("same", "same")).toEqual({ prefix: 4, suffix: 0 });
    expect(differingSpan("aXa", "aa")).toEqual({ prefix: 1, suffix: 1 });
    expect(differingSpan("", "abc")).toEqual({ prefix: 0, suffix: 0 });
  });
});
