import { describe, expect, it } from "vitest";
import { parseByteRange } from "./byte-range";

describe("parseByteRange", () => {
  it.each([
    ["bytes=0-99", 1000, { start: 0, end: 99 }],
    ["bytes=900-", 1000, { start: 900, end: 999 }],
    ["bytes=990-5000", 1000, { start: 990, end: 999 }],
    ["bytes=-100", 1000, { start: 900, end: 999 }],
    ["bytes=-5000", 1000, { start: 0, end: 999 }],
    ["bytes=1000-", 1000, "unsatisfiable"],
    ["bytes=50-10", 1000, "unsatisfiable"],
    ["bytes=-0", 1000, "unsatisfiable"],
    [null, 1000, null],
    ["bytes=0-1,5-9", 1000, null],
    ["items=0-9", 1000, null],
    ["bytes=-", 1000, null],
  ] as const)("%s of %i bytes", (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});
