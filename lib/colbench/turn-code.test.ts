import { describe, expect, it } from "vitest";
import { stripFences } from "./turn-code";

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
