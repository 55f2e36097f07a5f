import { describe, expect, it } from "vitest";
import { atQuota, roughDuration, timeLeftMs } from "./pace";

describe("the desk's estimate and quota", () => {
  it("estimates the time left as the pairs left times the person's median per label", () => {
    expect(timeLeftMs({ left: 12, medianMs: 4500 })).toBe(54_000);
    expect(timeLeftMs({ left: 3, medianMs: null })).toBeNull();
    expect(timeLeftMs({ left: 0, medianMs: null })).toBe(0);
  });

  it("reads a duration in seconds, minutes, or hours and minutes", () => {
    expect(roughDuration(54_000)).toBe("54 s");
    expect(roughDuration(59_400)).toBe("59 s");
    expect(roughDuration(90_000)).toBe("2 min");
    expect(roughDuration(45 * 60_000)).toBe("45 min");
    expect(roughDuration(60 * 60_000)).toBe("1 h");
    expect(roughDuration(135 * 60_000 + 20_000)).toBe("2 h 15 min");
  });

  it("is at the quota once the counted pairs reach it (or pass it, when the lead lowers it)", () => {
    expect(atQuota({ quota: null, counted: 500 })).toBe(false);
    expect(atQuota({ quota: 3, counted: 2 })).toBe(false);
    expect(atQuota({ quota: 3, counted: 3 })).toBe(true);
    expect(atQuota({ quota: 2, counted: 3 })).toBe(true);
  });
});
