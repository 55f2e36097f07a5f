import { describe, expect, it } from "vitest";
import { lineStart } from "./format";

describe("lineStart", () => {
  it("keeps a short text whole and cuts a long one at its start, marked", () => {
    expect(lineStart("Write a function that adds two numbers.")).toBe("Write a function that adds two numbers.");
    const long = `${"word ".repeat(60)}end`;
    expect(lineStart(long)).toBe(`${"word ".repeat(32).trimEnd()}…`);
    expect(lineStart(long, 10)).toBe("word word…");
  });
});
