// The lenient JSON reading CollabLLM applies to its judge's and its simulated user's answers
// (collabllm/utils/extract_json_reliable.py, `extract_json`): the text from the first "{" to the
// last "}", read by a forgiving grammar: strings in double, single or triple quotes, true/false/null
// in any case, and a quoted string that spells a number or true/false/null taken as that value.
// Written here for the studio from that description, not translated line by line.

export class LenientJsonError extends Error {}

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** A quoted value as CollabLLM converts it: true/false/null, then a number, else the string. */
function convert(text: string): string | number | boolean | null {
  const lower = text.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (lower === "null") return null;
  const number = pythonNumber(text);
  return number === undefined ? text : number;
}

/** Python's int()/float() of a string, where they succeed (float when it has "." or "e"). */
function pythonNumber(text: string): number | undefined {
  const t = text.trim().replaceAll("_", "");
  if (/[.e]/i.test(text)) {
    if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t) || /^[+-]?(?:inf|infinity|nan)$/i.test(t)) {
      const lower = t.toLowerCase().replace(/^\+/, "");
      if (lower.endsWith("nan")) return NaN;
      if (lower.endsWith("inf") || lower.endsWith("infinity")) return lower.startsWith("-") ? -Infinity : Infinity;
      return Number(t);
    }
    return undefined;
  }
  return /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
}

class Reader {
  pos = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new LenientJsonError(`${what} at position ${this.pos}`);
  }

  space() {
    while (this.pos < this.s.length && " \t\n\r".includes(this.s[this.pos]!)) this.pos++;
  }

  value(): Value {
    this.space();
    const s = this.s;
    const c = s[this.pos];
    if (c === undefined) this.fail("unexpected end");
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    const three = s.slice(this.pos, this.pos + 3);
    if (three === '"""' || three === "'''") return this.tripleQuoted(three);
    if (c === '"' || c === "'") return convert(this.quoted());
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (s.slice(this.pos, this.pos + word.length).toLowerCase() === word) {
        this.pos += word.length;
        return value;
      }
    }
    if ("-+0123456789.".includes(c)) return this.number();
    return this.fail(`unexpected character ${JSON.stringify(c)}`);
  }

  object(): Value {
    const out: { [key: string]: Value } = {};
    this.pos++;
    this.space();
    while (this.pos < this.s.length && this.s[this.pos] !== "}") {
      this.space();
      const q = this.s[this.pos];
      if (q !== '"' && q !== "'") this.fail("expected a quoted key");
      const key = String(convert(this.quoted()));
      this.space();
      if (this.s[this.pos] !== ":") this.fail('expected ":"');
      this.pos++;
      out[key] = this.value();
      this.space();
      if (this.s[this.pos] === ",") {
        this.pos++;
        this.space();
      } else if (this.s[this.pos] !== "}" && this.pos < this.s.length) this.fail('expected "," or "}"');
    }
    if (this.s[this.pos] !== "}") this.fail('expected "}"');
    this.pos++;
    return out;
  }

  array(): Value {
    const out: Value[] = [];
    this.pos++;
    this.space();
    while (this.pos < this.s.length && this.s[this.pos] !== "]") {
      out.push(this.value());
      this.space();
      if (this.s[this.pos] === ",") {
        this.pos++;
        this.space();
      } else if (this.s[this.pos] !== "]" && this.pos < this.s.length) this.fail('expected "," or "]"');
    }
    if (this.s[this.pos] !== "]") this.fail('expected "]"');
    this.pos++;
    return out;
  }

  /** A string in one kind of quote; a backslash escapes n, t, r, itself and the quote, and keeps anything else bare. */
  quoted(): string {
    const quote = this.s[this.pos]!;
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", [quote]: quote };
    let out = "";
    for (this.pos++; this.pos < this.s.length; this.pos++) {
      let c = this.s[this.pos]!;
      if (c === "\\") {
        this.pos++;
        if (this.pos >= this.s.length) this.fail("an escape at the end");
        c = this.s[this.pos]!;
        out += escapes[c] ?? c;
      } else if (c === quote) {
        this.pos++;
        return out;
      } else out += c;
    }
    return this.fail("an unterminated string");
  }

  tripleQuoted(quote: string): Value {
    const end = this.s.indexOf(quote, this.pos + 3);
    if (end < 0) this.fail("an unterminated triple-quoted string");
    const text = this.s.slice(this.pos + 3, end);
    this.pos = end + 3;
    return convert(text);
  }

  number(): Value {
    const start = this.pos;
    while (this.pos < this.s.length && "-+0123456789.eE".includes(this.s[this.pos]!)) this.pos++;
    const text = this.s.slice(start, this.pos);
    const number = pythonNumber(text);
    if (number === undefined || /\s|_/.test(text)) {
      this.pos = start;
      this.fail(`an invalid number ${JSON.stringify(text)}`);
    }
    return number;
  }
}

/** The JSON value between the text's first "{" and last "}", read leniently; throws LenientJsonError. */
export function extractJson(text: string): Value {
  const start = text.indexOf("{");
  if (start < 0) throw new LenientJsonError('no "{" in the text');
  const reader = new Reader(text.slice(start, text.lastIndexOf("}") + 1).trim());
  const value = reader.value();
  reader.space();
  if (reader.pos !== reader.s.length) reader.fail("unexpected content after the value");
  return value;
}
