import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classifyAnswer, frontendTaskKey, parseFrontendScoreLine } from "./input";

const dir = mkdtempSync(path.join(os.tmpdir(), "colbench-frontend-input-"));
writeFileSync(path.join(dir, "final.png"), "x");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("classifyAnswer", () => {
  it("tells HTML from a screenshot path and from no answer", () => {
    expect(classifyAnswer("<html><body>hi</body></html>", dir)).toEqual({
      kind: "html",
      html: "<html><body>hi</body></html>",
    });
    expect(classifyAnswer("final.png", dir)).toEqual({ kind: "image", path: path.join(dir, "final.png") });
    expect(classifyAnswer(path.join(dir, "final.png"), "/")).toEqual({
      kind: "image",
      path: path.join(dir, "final.png"),
    });
    expect(classifyAnswer("missing.png", dir)).toMatchObject({ kind: "none" });
    expect(classifyAnswer(null, dir)).toMatchObject({ kind: "none" });
    expect(classifyAnswer("shot.jpg", dir)).toMatchObject({ field: "answer" });
    // Text that merely ends like a file name is still HTML when it has markup.
    expect(classifyAnswer("<img src='a.png'>", dir)).toMatchObject({ kind: "html" });
  });
});

describe("parseFrontendScoreLine", () => {
  it("reads trajectories and bare lines, keyed by the ground truth", () => {
    const r = parseFrontendScoreLine(
      JSON.stringify({ task: { ground_truth: "<p>x</p>", problem_description: "d" }, answer: "<p>y</p>" }),
      dir,
    );
    expect(r.ok && r.line.taskKey).toBe(frontendTaskKey("<p>x</p>"));
    const bare = parseFrontendScoreLine(JSON.stringify({ ground_truth: "<p>x</p>", answer: null }), dir);
    expect(bare.ok && bare.line.answer.kind).toBe("none");
  });

  it("names the field of each problem", () => {
    const r = parseFrontendScoreLine(JSON.stringify({ task: { ground_truth: "" }, answer: 3 }), dir);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.field).sort()).toEqual(["answer", "task.ground_truth"]);
    const arr = parseFrontendScoreLine("[1]", dir);
    expect(!arr.ok && arr.problems[0]!.field).toBe("(line)");
  });
});
