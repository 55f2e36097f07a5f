// MATH's deterministic answer check (Hendrycks et al. 2021, github.com/hendrycks/math at 985bdc1:
// modeling/dataset/util.py `last_boxed_only_string`, modeling/evaluate_gpt3.py `remove_boxed`,
// modeling/math_equivalence.py `_strip_string` and `is_equiv`), rewritten in TypeScript step for step.
// CollabLLM does not use it (its accuracy is an LLM judge); the studio records it beside the judge's
// verdict as a second, reproducible figure. fixtures/boxed-cases.json holds what the Python gives.

/** Python's len(): code points, not UTF-16 units. */
const codePoints = (s: string) => Array.from(s).length;

/** A step of the Python that raises (an assert or an index out of range); is_equiv catches it. */
class StripError extends Error {}

/** The last `\boxed{…}` (or, with none, `\fbox{…}`) with its braces balanced; null when none closes. */
export function lastBoxedOnlyString(text: string): string | null {
  let start = text.lastIndexOf("\\boxed");
  if (start < 0) start = text.lastIndexOf("\\fbox");
  if (start < 0) return null;
  let open = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") open++;
    if (text[i] === "}") {
      open--;
      if (open === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/** The inside of `\boxed{…}`; null for anything else (an `\fbox`, null itself). */
export function removeBoxed(boxed: string | null): string | null {
  const left = "\\boxed{";
  if (boxed === null || !boxed.startsWith(left) || !boxed.endsWith("}")) return null;
  // "\boxed{" alone ends in "{", so the checks above already refuse it; the slice is never negative.
  return boxed.slice(left.length, -1);
}

function fixFracs(input: string): string {
  const pieces = input.split("\\frac");
  let out = pieces[0]!;
  for (const piece of pieces.slice(1)) {
    out += "\\frac";
    // Characters as Python indexes them: code points.
    const chars = Array.from(piece);
    if (chars.length === 0) throw new StripError("\\frac at the end");
    if (chars[0] === "{") {
      out += piece;
      continue;
    }
    // One character after \frac: the Python gives up and returns its input unchanged.
    if (chars.length < 2) return input;
    const [a, b] = [chars[0]!, chars[1]!];
    const rest = chars.slice(2).join("");
    out += b !== "{" ? `{${a}}{${b}}${rest}` : `{${a}}${b}${rest}`;
  }
  return out;
}

/** What Python's "{}".format(int(x)) gives back unchanged: a plain integer without leading zeros. */
const CANONICAL_INT = /^(?:0|-?[1-9][0-9]*)$/;

function fixASlashB(s: string): string {
  const parts = s.split("/");
  if (parts.length !== 2) return s;
  const [a, b] = parts as [string, string];
  return CANONICAL_INT.test(a) && CANONICAL_INT.test(b) ? `\\frac{${a}}{${b}}` : s;
}

function removeRightUnits(s: string): string {
  if (!s.includes("\\text{ ")) return s;
  const parts = s.split("\\text{ ");
  if (parts.length !== 2) throw new StripError("more than one \\text{ ");
  return parts[0]!;
}

function fixSqrt(s: string): string {
  if (!s.includes("\\sqrt")) return s;
  const pieces = s.split("\\sqrt");
  let out = pieces[0]!;
  for (const piece of pieces.slice(1)) {
    const [first, ...rest] = Array.from(piece);
    if (first === undefined) throw new StripError("\\sqrt at the end");
    out += first !== "{" ? `\\sqrt{${first}}${rest.join("")}` : `\\sqrt${piece}`;
  }
  return out;
}

/** MATH's normal form of an answer; throws where the Python raises. */
export function stripString(input: string): string {
  let s = input
    .replaceAll("\n", "")
    .replaceAll("\\!", "")
    .replaceAll("\\\\", "\\")
    .replaceAll("tfrac", "frac")
    .replaceAll("dfrac", "frac")
    .replaceAll("\\left", "")
    .replaceAll("\\right", "")
    .replaceAll("^{\\circ}", "")
    .replaceAll("^\\circ", "")
    .replaceAll("\\$", "");
  s = removeRightUnits(s);
  s = s.replaceAll("\\%", "").replaceAll(" .", " 0.").replaceAll("{.", "{0.");
  if (s.length === 0) return s;
  if (s[0] === ".") s = "0" + s;
  const sides = s.split("=");
  if (sides.length === 2 && codePoints(sides[0]!) <= 2) s = sides[1]!;
  s = fixSqrt(s);
  s = s.replaceAll(" ", "");
  s = fixFracs(s);
  if (s === "0.5") s = "\\frac{1}{2}";
  return fixASlashB(s);
}

/** MATH's `is_equiv`: equal normal forms; where normalising raises, the raw strings compared. */
export function isEquiv(a: string | null, b: string | null): boolean {
  if (a === null && b === null) return true;
  if (a === null || b === null) return false;
  try {
    return stripString(a) === stripString(b);
  } catch (error) {
    if (error instanceof StripError) return a === b;
    throw error;
  }
}

/** The answer MATH's evaluation takes from a text: the inside of its last \boxed{…}. */
export function boxedAnswer(text: string): string | null {
  return removeBoxed(lastBoxedOnlyString(text));
}

export interface BoxedCheck {
  /** The reference solution's boxed answer. */
  reference: string | null;
  /** The final answer's boxed answer. */
  answer: string | null;
  /** MATH's is_equiv of the two (hendrycks: both missing counts as equal, as its code says). */
  equivalent: boolean;
}

export function boxedCheck(referenceSolution: string, finalAnswer: string | null): BoxedCheck {
  const reference = boxedAnswer(referenceSolution);
  const answer = finalAnswer === null ? null : boxedAnswer(finalAnswer);
  return { reference, answer, equivalent: isEquiv(reference, answer) };
}
