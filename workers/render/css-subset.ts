// A static page can only ever match rules whose class selectors name classes it contains, so
// serving Tailwind's 39,000 rules minus the ones no element can match renders the same pixels
// while sparing Chromium most of the work of styling (each full-page capture resizes the view,
// which makes Blink re-evaluate the whole sheet). Rules are dropped only when that is provable:
// a rule stays if any selector in its list has all of its required classes present in the page.

type Node =
  | { kind: "text"; text: string }
  | { kind: "rule"; text: string; alternatives: string[][] | null }
  | { kind: "block"; open: string; children: Node[] };

/** At-rules whose contents are ordinary style rules (so they can be filtered one by one). */
const GROUPING_AT_RULES = new Set(["media", "supports", "document", "-moz-document", "layer", "container"]);

function skipComment(css: string, i: number): number {
  const end = css.indexOf("*/", i + 2);
  return end < 0 ? css.length : end + 2;
}

function skipString(css: string, i: number): number {
  const quote = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== quote) {
    if (css[j] === "\\") j++;
    else if (css[j] === "\n") break; // an unterminated string ends at the line in CSS
    j++;
  }
  return j + 1;
}

/** Index just past the `}` matching the `{` at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length;) {
    const c = css[i];
    if (c === "/" && css[i + 1] === "*") i = skipComment(css, i);
    else if (c === '"' || c === "'") i = skipString(css, i);
    else if (c === "\\") i += 2;
    else {
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) return i + 1;
      i++;
    }
  }
  return css.length;
}

/** Where the prelude starting at `i` ends: at a top-level `{`, `;` or `}` (returned as found). */
function preludeEnd(css: string, i: number): number {
  let parens = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === "/" && css[i + 1] === "*") i = skipComment(css, i);
    else if (c === '"' || c === "'") i = skipString(css, i);
    else if (c === "\\") i += 2;
    else {
      if (c === "(" || c === "[") parens++;
      else if (c === ")" || c === "]") parens--;
      else if (parens <= 0 && (c === "{" || c === ";" || c === "}")) return i;
      i++;
    }
  }
  return css.length;
}

function parseNodes(css: string, start: number, end: number): Node[] {
  const nodes: Node[] = [];
  let i = start;
  while (i < end) {
    const c = css[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && css[i + 1] === "*") {
      i = skipComment(css, i); // comments never affect rendering
      continue;
    }
    if (c === "}" || c === ";") {
      i++;
      continue;
    }
    const stop = Math.min(preludeEnd(css, i), end);
    const prelude = css.slice(i, stop).trim();
    if (stop >= end || css[stop] !== "{") {
      // A statement at-rule (@charset, @import) or stray text: keep it as it was.
      nodes.push({ kind: "text", text: css.slice(i, Math.min(stop + 1, end)) });
      i = stop + 1;
      continue;
    }
    const close = blockEnd(css, stop);
    if (prelude.startsWith("@")) {
      const name = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase() ?? "";
      if (GROUPING_AT_RULES.has(name)) {
        nodes.push({ kind: "block", open: `${prelude}{`, children: parseNodes(css, stop + 1, close - 1) });
      } else {
        nodes.push({ kind: "text", text: css.slice(i, close) }); // @keyframes, @font-face, @page: kept whole
      }
    } else {
      nodes.push({ kind: "rule", text: css.slice(i, close), alternatives: requiredClasses(prelude) });
    }
    i = close;
  }
  return nodes;
}

const HEX = /^[0-9a-fA-F]$/;

/** Reads a CSS identifier (with escapes) starting at `i`; returns its value and the end index. */
function readIdent(s: string, i: number): [string, number] {
  let out = "";
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\") {
      let hex = "";
      let j = i + 1;
      while (j < s.length && hex.length < 6 && HEX.test(s[j]!)) hex += s[j++];
      if (hex) {
        out += String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd);
        if (j < s.length && /[ \t\n\r\f]/.test(s[j]!)) j++;
        i = j;
      } else {
        out += s[i + 1] ?? "";
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      out += c;
      i++;
    } else break;
  }
  return [out, i];
}

/**
 * For each selector of a selector list, the classes an element tree must contain for it to
 * match: those outside any parentheses (inside `:not(...)` a class may well be absent). Null
 * when some selector needs no class at all (the rule must always stay).
 */
export function requiredClasses(selectorList: string): string[][] | null {
  const alternatives: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  for (let i = 0; i < selectorList.length;) {
    const c = selectorList[i]!;
    if (c === "\\") {
      i += 2;
    } else if (c === '"' || c === "'") {
      i = skipString(selectorList, i);
    } else if (c === "(" || c === "[") {
      depth++;
      i++;
    } else if (c === ")" || c === "]") {
      depth--;
      i++;
    } else if (c === "," && depth === 0) {
      if (current.length === 0) return null;
      alternatives.push(current);
      current = [];
      i++;
    } else if (c === "." && depth === 0) {
      const [name, next] = readIdent(selectorList, i + 1);
      if (name) current.push(name.toLowerCase());
      i = Math.max(next, i + 1);
    } else {
      i++;
    }
  }
  if (current.length === 0) return null;
  alternatives.push(current);
  return alternatives;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  colon: ":",
  sol: "/",
  period: ".",
};

/** Character references decoded as the HTML parser would decode the common ones (numeric, and a few named). */
export function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * Every word of the page that could be a class name, lower-cased (pages without a doctype are
 * in quirks mode, where class selectors ignore ASCII case). A superset on purpose: splitting
 * the whole text rather than parsing class attributes can only keep more rules, never fewer.
 */
export function pageTokens(html: string): Set<string> {
  const tokens = new Set<string>();
  const add = (text: string) => {
    for (const word of text.toLowerCase().split(/[\s"'<>=`]+/)) if (word) tokens.add(word);
  };
  add(html);
  if (html.includes("&")) add(decodeEntities(html));
  return tokens;
}

// SMIL's <set>/<animate> can rewrite a class attribute without any script.
const AFTER_PARSE =
  /<\s*(script|iframe|frame|object|embed|template|animate|set)\b|\bon[a-z]+\s*=|javascript:|srcdoc|data:text\/html|data:image\/svg/i;

/**
 * True when something other than the HTML parser could add classes or documents after
 * parsing (scripts, handlers, nested documents); such pages get the whole stylesheet.
 */
export function mayChangeAfterParse(html: string): boolean {
  // Attribute values reach the browser with their character references decoded: a URL spelt
  // `data:text/h&#116;ml` is data:text/html to the page, so it is matched decoded as well.
  return AFTER_PARSE.test(html) || (html.includes("&") && AFTER_PARSE.test(decodeEntities(html)));
}

/** One rule or verbatim piece of the sheet, with the at-rule blocks (e.g. @media) it sits in. */
interface Entry {
  rule: boolean;
  text: string;
  alternatives: string[][] | null;
  blocks: number[];
}

export class StylesheetSubsetter {
  private readonly entries: Entry[] = [];
  private readonly blockOpen: string[] = [];
  /** Entries kept whatever the page. */
  private readonly always: number[] = [];
  /** For each class, the entries one of whose selectors needs it (indexed by its first class). */
  private readonly byClass = new Map<string, number[]>();

  constructor(readonly css: string) {
    this.flatten(parseNodes(css, 0, css.length), []);
  }

  private flatten(nodes: Node[], blocks: number[]): void {
    for (const node of nodes) {
      if (node.kind === "block") {
        this.blockOpen.push(node.open);
        this.flatten(node.children, [...blocks, this.blockOpen.length - 1]);
        continue;
      }
      const index = this.entries.length;
      const alternatives = node.kind === "rule" ? node.alternatives : null;
      this.entries.push({ rule: node.kind === "rule", text: node.text, alternatives, blocks });
      if (alternatives === null) this.always.push(index);
      else {
        for (const key of new Set(alternatives.map((classes) => classes[0]!))) {
          const list = this.byClass.get(key);
          if (list) list.push(index);
          else this.byClass.set(key, [index]);
        }
      }
    }
  }

  /** The rules `html` can match, in their original order; the full sheet where that is not provable. */
  forPage(html: string): string {
    if (mayChangeAfterParse(html)) return this.css;
    return this.subset(pageTokens(html));
  }

  subset(tokens: Set<string>): string {
    const picked = new Set<number>(this.always);
    for (const token of tokens) {
      const candidates = this.byClass.get(token);
      if (!candidates) continue;
      for (const i of candidates) if (!picked.has(i) && matchable(this.entries[i]!.alternatives, tokens)) picked.add(i);
    }
    const order = [...picked].sort((a, b) => a - b);
    const parts: string[] = [];
    let open: number[] = [];
    for (const i of order) {
      const entry = this.entries[i]!;
      let common = 0;
      while (common < open.length && common < entry.blocks.length && open[common] === entry.blocks[common]) common++;
      for (let k = open.length; k > common; k--) parts.push("}");
      for (let k = common; k < entry.blocks.length; k++) parts.push(this.blockOpen[entry.blocks[k]!]!);
      open = entry.blocks;
      parts.push(entry.text);
    }
    for (let k = open.length; k > 0; k--) parts.push("}");
    return parts.join("");
  }

  get ruleCount(): number {
    return this.entries.filter((e) => e.rule).length;
  }
}

function matchable(alternatives: string[][] | null, tokens: Set<string>): boolean {
  if (alternatives === null) return true;
  return alternatives.some((classes) => classes.every((name) => tokens.has(name)));
}
