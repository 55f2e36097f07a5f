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
  task: { problemDescription: "A landing page for a bakery", groundTruth: "<html>SECRET target page</html>", testCases: null },
  episodes: {
    a: { answer: "<html>mine</html>", reward: 0.8, details: { answerRender: answer, targetRender: target, reward: 0.8 }, turns: [{ index: 0, role: "simulator", content: "A landing page", html: null, renderId: null }] },
    b: { answer: "<html>other</html>", reward: 0.4, details: { answerRender: answer.replace(/a/g, "c"), targetRender: target }, turns: [] },
  },
};

describe("pairView", () => {
  it("keeps a frontend pair's target page out unless the queue shows hidden information", () => {
    const blind = JSON.stringify(pairView(frontend, { leftIsA: true, hidden: false }));
    expect(blind).not.toContain(target);
    expect(blind).not.toContain("SECRET");
    expect(blind).not.toMatch(/"(gold|reward|sourceChoice)"/);
    expect(blind).toContain(answer);
    const shown = pairView(frontend, { leftIsA: false, hidden: true });
    expect(shown.hidden?.targetRender).toBe(target);
    // leftIsA false: b is on the left.
    expect(shown.left?.answer).toBe("<html>other</html>");
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
