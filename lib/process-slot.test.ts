import { afterEach, describe, expect, it } from "vitest";
import { processSlot } from "./process-slot";

const name = "colbench.test.processSlot";

afterEach(() => processSlot(name).set(undefined));

describe("processSlot", () => {
  it("is empty until set, and a second handle on the same name sees what the first set", () => {
    const first = processSlot<{ n: number }>(name);
    expect(first.get()).toBeUndefined();
    const value = { n: 1 };
    first.set(value);
    expect(processSlot<{ n: number }>(name).get()).toBe(value);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for(name)]).toBe(value);
  });

  it("need() throws the given message while empty and returns the value once set", () => {
    const slot = processSlot<string>(name);
    expect(() => slot.need("no test value in this process")).toThrow("no test value in this process");
    slot.set("here");
    expect(slot.need("unused")).toBe("here");
  });

  it("getOrCreate() makes the value once and keeps it", () => {
    const slot = processSlot<{ made: number }>(name);
    let calls = 0;
    const a = slot.getOrCreate(() => ({ made: ++calls }));
    const b = processSlot<{ made: number }>(name).getOrCreate(() => ({ made: ++calls }));
    expect(a).toBe(b);
    expect(calls).toBe(1);
  });

  it("set(undefined) empties the slot, and slots of other names stay apart", () => {
    const slot = processSlot<number>(name);
    const other = processSlot<number>(`${name}.other`);
    slot.set(1);
    other.set(2);
    slot.set(undefined);
    expect(slot.get()).toBeUndefined();
    expect(other.get()).toBe(2);
    other.set(undefined);
  });
});
