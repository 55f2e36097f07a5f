import { describe, expect, it } from "vitest";
import { meanWithInterval } from "./intervals";

describe("meanWithInterval", () => {
  it("gives the mean with a normal 95% interval over units", () => {
    const e = meanWithInterval([0, 1, 0, 1]);
    expect(e.mean).toBe(0.5);
    // sd = 0.57735, se = 0.288675, half-width = 0.565794
    expect(e.low).toBeCloseTo(0, 6);
    expect(e.high).toBeCloseTo(1, 6);
    const tight = meanWithInterval(Array.from({ length: 100 }, (_, i) => (i % 2 ? 0.6 : 0.4)));
    expect(tight.mean).toBeCloseTo(0.5, 12);
    expect(tight.high - tight.low).toBeCloseTo(2 * 1.959964 * Math.sqrt((0.01 * 100) / 99 / 100), 6);
  });

  it("handles no and one unit", () => {
    expect(meanWithInterval([]).n).toBe(0);
    expect(meanWithInterval([0.3])).toEqual({ mean: 0.3, low: 0.3, high: 0.3, n: 1 });
  });
});
