import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedColbenchDir } from "../../paths";
import { STARTER_PAGE } from "../frontend/starter";
import { starterFunction } from "./starter";

describe("starterCode", () => {
  it("starts a backend answer from the signature the task states", () => {
    const text = "Help me score reviews. The signature of the function is: def score(reviews, weights=None)";
    expect(starterFunction(text)).toBe("def score(reviews, weights=None):\n    pass\n");
  });

  it("leaves a signature the task cut short for the person to finish", () => {
    expect(starterFunction("x. The signature of the function is: def f(a, w={'k'")).toBe("def f(a, w={'k'\n");
  });

  it("falls back to a bare function, and gives a frontend task an empty Tailwind page", () => {
    expect(starterFunction("no signature here")).toBe("def solution():\n    pass\n");
    expect(STARTER_PAGE).toMatch(/^<html>[\s\S]*tailwindcss@2\.2\.19[\s\S]*<body>\s*<\/body>/);
  });

  const file = path.join(sharedColbenchDir(), "backend_test.jsonl");
  it.skipIf(!fs.existsSync(file))(
    "gives every official backend task a function that compiles or the task's own partial line (skipped without ../shared/colbench)",
    () => {
      const starters = fs
        .readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => starterFunction((JSON.parse(l) as { problem_description: string }).problem_description));
      const complete = starters.filter((s) => s.endsWith(":\n    pass\n"));
      expect(starters).toHaveLength(1000);
      expect(complete.length).toBe(992);
      expect(starters.every((s) => s.startsWith("def "))).toBe(true);
    },
  );
});
