import { describe, expect, it } from "vitest";
import cases from "./fixtures/boxed-cases.json";
import { boxedCheck, isEquiv, lastBoxedOnlyString, removeBoxed, stripString } from "./boxed";

// Every expected value below was produced by hendrycks/math's own Python (fixtures/make-boxed-cases.py).

describe("MATH's answer check against the original Python", () => {
  it.each(cases.strip.map((c) => [JSON.stringify(c.input), c] as const))("_strip_string(%s)", (_, c) => {
    if ("raises" in c) expect(() => stripString(c.input)).toThrow();
    else expect(stripString(c.input)).toBe(c.output);
  });

  it.each(cases.boxed.map((c) => [JSON.stringify(c.input), c] as const))(
    "last_boxed_only_string + remove_boxed(%s)",
    (_, c) => {
      expect(lastBoxedOnlyString(c.input)).toBe(c.last);
      expect(removeBoxed(lastBoxedOnlyString(c.input))).toBe(c.removed);
    },
  );

  it.each(cases.equiv.map((c) => [JSON.stringify([c.a, c.b]), c] as const))("is_equiv%s", (_, c) => {
    expect(isEquiv(c.a, c.b)).toBe(c.equiv);
  });

  it("covers the cases where a step raises and is_equiv falls back to comparing the raw strings", () => {
    const raising = cases.strip.filter((c) => "raises" in c).map((c) => c.input);
    expect(raising).toEqual(expect.arrayContaining(["\\frac", "\\sqrt", "\\text{ a}\\text{ b}"]));
    expect(cases.strip.length + cases.boxed.length + cases.equiv.length).toBeGreaterThanOrEqual(60);
  });
});

describe("boxedCheck", () => {
  it("compares the reference solution's last boxed answer with the final answer's", () => {
    expect(boxedCheck("So $x = \\boxed{\\dfrac{3}{4}}$.", "I get \\boxed{\\frac34}.")).toEqual({
      reference: "\\dfrac{3}{4}",
      answer: "\\frac34",
      equivalent: true,
    });
    expect(boxedCheck("\\boxed{12}", "The answer is 12.")).toEqual({
      reference: "12",
      answer: null,
      equivalent: false,
    });
    expect(boxedCheck("\\boxed{12}", null)).toEqual({ reference: "12", answer: null, equivalent: false });
  });
});
