// Variants of a page for checking that an embedder ranks designs as a person would: the same design
// with other words, the same content and colours with the layout undone, and edits a reviewer might
// try (other hues, light and dark swapped, sections reversed, pictures removed, a serif typeface, a
// section fewer). All work on the HTML as text, on the Tailwind pages ColBench uses (no DOM here:
// they run in tests and benches); bench/embedder-ordering.ts counts how an embedder ranks them.

const VOWELS = "aeiou";
const CONSONANTS = "bcdfghjklmnpqrstvwxyz";

function shiftLetter(ch: string): string {
  const lower = ch.toLowerCase();
  for (const set of [VOWELS, CONSONANTS]) {
    const i = set.indexOf(lower);
    if (i >= 0) {
      const next = set[(i + 1) % set.length]!;
      return ch === lower ? next : next.toUpperCase();
    }
  }
  return ch;
}

const shiftWords = (text: string) => text.replace(/&[a-z#0-9]+;|[A-Za-z]/g, (m) => (m.length > 1 ? m : shiftLetter(m)));

/**
 * Every word of visible text replaced by another of the same length, letter case and punctuation
 * (text between tags, and the placeholder of form fields); markup, classes and pictures untouched.
 */
export function reword(html: string): string {
  return html.replace(
    /(<(script|style|title)\b[\s\S]*?<\/\2>)|(<!--[\s\S]*?-->)|(\bplaceholder\s*=\s*)(["'])([^"']*)\5|>([^<]+)</gi,
    (
      whole,
      skipped?: string,
      _tag?: string,
      comment?: string,
      attr?: string,
      quote?: string,
      value?: string,
      text?: string,
    ) => {
      if (skipped || comment) return whole;
      if (attr !== undefined) return `${attr}${quote}${shiftWords(value ?? "")}${quote}`;
      return text === undefined ? whole : `>${shiftWords(text)}<`;
    },
  );
}

/** Rewrites every class attribute's list of classes. */
function mapClasses(html: string, f: (classes: string[]) => string[]): string {
  return html.replace(/\bclass\s*=\s*(["'])([^"']*)\1/gi, (_whole, quote: string, classes: string) => {
    return `class=${quote}${f(classes.split(/\s+/).filter(Boolean)).join(" ")}${quote}`;
  });
}

/** Rewrites the declarations of every style attribute (property names lower-cased). */
function mapStyles(html: string, keep: (property: string) => boolean): string {
  return html.replace(/\bstyle\s*=\s*(["'])([^"']*)\1/gi, (_whole, quote: string, style: string) => {
    const kept = style.split(";").filter((d) => d.trim() && keep(d.split(":")[0]!.trim().toLowerCase()));
    return `style=${quote}${kept.join(";")}${quote}`;
  });
}

/** Tailwind's arrangement classes: how boxes sit beside, above and inside each other, and how far apart. */
const LAYOUT_CLASS = new RegExp(
  "^-?(?:[a-z0-9]+:)*-?(?:" +
    [
      // display and flow
      "flex|inline-flex|grid|inline-grid|block|inline-block|table(?:-\\S+)?|flow-root|contents",
      "flex-\\S+|grid-cols-\\S+|grid-rows-\\S+|grid-flow-\\S+|col-\\S+|row-\\S+|auto-cols-\\S+|auto-rows-\\S+|order-\\S+",
      "justify-\\S+|items-\\S+|content-\\S+|self-\\S+|place-\\S+|float-\\S+|clear-\\S+",
      // spacing between boxes
      "m[xytblr]?-\\S+|space-[xy]-\\S+|gap(?:-[xy])?-\\S+",
      // alignment and positioning
      "text-(?:center|right|left|justify)|absolute|fixed|relative|sticky|inset-\\S+|top-\\S+|bottom-\\S+|left-\\S+|right-\\S+|z-\\S+",
      "transform|-?translate-[xy]-\\S+",
    ].join("|") +
    ")$",
);
/** Padding, which is only spacing on a box that draws nothing of its own. */
const PADDING_CLASS = /^(?:[a-z0-9]+:)*p[xytblr]?-\S+$/;
/** Classes that make a box visible by itself (a fill, a border, a shadow): its padding is part of its look. */
const DRAWN_BOX =
  /^(?:[a-z0-9]+:)*(?:bg-(?!opacity|cover|contain|center|fixed|no-repeat|repeat|top|bottom|left|right|clip|origin)\S+|border(?:-[trblxy])?(?:-\d+)?|rounded\S*|shadow\S*|ring\S*)$/;
const RESPONSIVE_DISPLAY = /^[a-z0-9]+:(?:flex|inline-flex|grid|inline-grid|block|inline-block|table)$/;
const LAYOUT_STYLE =
  /^(?:display|position|float|clear|top|right|bottom|left|inset|z-index|margin.*|gap|row-gap|column-gap|flex.*|grid.*|justify-.*|align-.*|place-.*|order|text-align|transform)$/;

/**
 * The page with its arrangement undone, as if its layout CSS had failed: Tailwind's display,
 * flex/grid, float, margin and gap, alignment and position classes removed (and the same properties
 * from inline styles), and the padding of boxes that draw nothing themselves (no fill, border or
 * shadow). Every box falls back to the browser's plain flow, stacked in source order at the left
 * with no space between, text left-aligned; rows and columns are gone. What is kept: the boxes
 * themselves (their sizes, fills, borders and the padding of drawn boxes; a column of a row or grid
 * keeps its share of the width), text, colours, fonts and pictures. An element shown only from
 * some breakpoint on (`hidden md:flex`) is shown, as it was at 1280 px.
 */
export function breakLayout(html: string): string {
  const broken = mapClasses(keepColumnWidths(html), (classes) => {
    const shownLater = classes.includes("hidden") && classes.some((c) => RESPONSIVE_DISPLAY.test(c));
    const drawn = classes.some((c) => DRAWN_BOX.test(c));
    return classes.filter((c) => {
      if (shownLater && c === "hidden") return false;
      return !LAYOUT_CLASS.test(c) && (drawn || !PADDING_CLASS.test(c));
    });
  });
  return mapStyles(broken, (property) => !LAYOUT_STYLE.test(property));
}

/** Breakpoints that apply to a 1280 px wide page, narrowest first (Tailwind 2's sm, md, lg, xl). */
const APPLIED_BREAKPOINTS = ["", "sm", "md", "lg", "xl"];

/** The class among `classes` matching `pattern` (without prefix) that wins at 1280 px, without its prefix. */
function effective(classes: string[], pattern: RegExp): string | undefined {
  let best: string | undefined;
  let rank = -1;
  for (const c of classes) {
    const at = c.lastIndexOf(":");
    const prefix = at < 0 ? "" : c.slice(0, at);
    const base = c.slice(at + 1);
    const r = APPLIED_BREAKPOINTS.indexOf(prefix);
    if (r >= rank && r >= 0 && pattern.test(base)) {
      best = base;
      rank = r;
    }
  }
  return best;
}

const classesOf = (startTag: string) =>
  /\bclass\s*=\s*(["'])([^"']*)\1/i.exec(startTag)?.[2]?.split(/\s+/).filter(Boolean) ?? [];
const SIZED = /^(?:[a-z0-9]+:)*(?:w-|flex-none$)/;
const INTRINSIC = new Set([
  "img",
  "svg",
  "video",
  "picture",
  "iframe",
  "canvas",
  "input",
  "button",
  "select",
  "textarea",
]);

/**
 * Gives each column of a row (flex) or grid its share of the width as an inline style, where it has
 * no width of its own, so that once the row is undone its boxes keep their size instead of
 * stretching across the page (pictures and controls keep their own size anyway).
 */
function keepColumnWidths(html: string): string {
  const inserts: [number, string][] = [];
  const visit = (from: number, to: number, depth: number) => {
    if (depth > 64) return;
    for (const el of childElements(html, from, to)) {
      const startTag = html.slice(el.start, el.inner[0]);
      const classes = classesOf(startTag);
      const display = effective(classes, /^(?:flex|inline-flex|grid|inline-grid|block|inline-block|hidden)$/);
      const kids = childElements(html, el.inner[0], el.inner[1]).filter((k) => k.tag !== "script" && k.tag !== "style");
      let columns = 0;
      if (display === "flex" || display === "inline-flex") {
        if (!/^flex-col/.test(effective(classes, /^flex-(?:row|col)(?:-reverse)?$/) ?? "flex-row"))
          columns = kids.length;
      } else if (display === "grid" || display === "inline-grid") {
        columns = Number(/^grid-cols-(\d+)$/.exec(effective(classes, /^grid-cols-\d+$/) ?? "")?.[1] ?? 1);
      }
      if (columns > 1) {
        for (const k of kids) {
          const tag = html.slice(k.start, k.inner[0]);
          const own = classesOf(tag);
          if (INTRINSIC.has(k.tag) || own.some((c) => SIZED.test(c))) continue;
          const span = Number(/^col-span-(\d+)$/.exec(effective(own, /^col-span-\d+$/) ?? "")?.[1] ?? 1);
          const width = `width:${((100 * Math.min(span, columns)) / columns).toFixed(3)}%`;
          const style = /\bstyle\s*=\s*(["'])/i.exec(tag);
          inserts.push(
            style
              ? [k.start + style.index + style[0].length, `${width};`]
              : [k.start + 1 + k.tag.length, ` style="${width}"`],
          );
        }
      }
      visit(el.inner[0], el.inner[1], depth + 1);
    }
  };
  visit(0, html.length, 0);
  let out = html;
  for (const [at, text] of inserts.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

const HUE_SWAP: Record<string, string> = {
  red: "blue",
  blue: "green",
  green: "purple",
  purple: "yellow",
  yellow: "pink",
  pink: "indigo",
  indigo: "red",
  teal: "pink",
  orange: "indigo",
  amber: "purple",
};

/**
 * Another colour scheme with the same lightness: every Tailwind accent hue replaced by another
 * (red by blue, blue by green, ...; greys, white and black kept) and pictures' colours left alone.
 */
export function swapHues(html: string): string {
  return mapClasses(html, (classes) =>
    classes.map((c) =>
      c.replace(
        /^((?:[a-z0-9]+:)*(?:bg|text|border|from|via|to|ring|divide|placeholder)-)([a-z]+)(-\d+)$/,
        (m, pre: string, hue: string, shade: string) => (HUE_SWAP[hue] ? `${pre}${HUE_SWAP[hue]}${shade}` : m),
      ),
    ),
  );
}

/**
 * Light and dark swapped: grey shades mirrored (gray-100 becomes gray-900), white and black
 * backgrounds and texts exchanged, a page without a background given a dark one; accent hues kept.
 */
export function darkMode(html: string): string {
  const mirrored = mapClasses(html, (classes) =>
    classes.map((c) =>
      c
        .replace(
          /^((?:[a-z0-9]+:)*(?:bg|text|border|divide|placeholder)-)(gray|grey|stone)-(\d+)$/,
          (_m, pre: string, hue: string, shade: string) =>
            `${pre}${hue}-${Math.min(900, Math.max(50, 1000 - Number(shade)))}`,
        )
        .replace(
          /^((?:[a-z0-9]+:)*(?:bg|text|border)-)(white|black)$/,
          (_m, pre: string, v: string) => `${pre}${v === "white" ? "gray-900" : "white"}`,
        ),
    ),
  );
  // The browser's own white page and black text, for elements that do not set them.
  return mirrored.replace(/<head\b[^>]*>|<body\b/i, (m) => `<style>html{background:#111827;color:#f9fafb}</style>${m}`);
}

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

interface Span {
  start: number;
  end: number;
  /** Where the element's content starts and ends (its own tags excluded). */
  inner: [number, number];
  tag: string;
}

/** The element children of the content html[from, to), found by tag depth (comments and raw text skipped). */
function childElements(html: string, from: number, to: number): Span[] {
  const out: Span[] = [];
  const tags = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(\/?)>/g;
  tags.lastIndex = from;
  const stack: { tag: string; start: number; innerStart: number }[] = [];
  for (let m = tags.exec(html); m && m.index < to; m = tags.exec(html)) {
    if (m[0].startsWith("<!--")) continue;
    const [whole, closing, name, selfClosing] = m;
    const tag = name!.toLowerCase();
    const end = m.index + whole.length;
    if (closing) {
      const at = stack.map((s) => s.tag).lastIndexOf(tag);
      if (at < 0) continue;
      const open = stack[at]!;
      stack.length = at;
      if (at === 0) out.push({ start: open.start, end, inner: [open.innerStart, m.index], tag });
    } else if (VOID.has(tag) || selfClosing) {
      if (stack.length === 0) out.push({ start: m.index, end, inner: [end, end], tag });
    } else {
      stack.push({ tag, start: m.index, innerStart: end });
      if (tag === "script" || tag === "style") {
        const close = html.toLowerCase().indexOf(`</${tag}`, end);
        tags.lastIndex = close < 0 ? to : close;
      }
    }
  }
  return out;
}

/**
 * The page's sections in reverse order: the children of <body>, or of the largest element down from
 * it that has at least three (such as a centred container), else the first two found; scripts and
 * styles stay where they are.
 */
export function reverseSections(html: string): string {
  const kids = sectionsOf(html);
  return kids ? reversed(html, kids) : html;
}

/** The children of <body>, or of the largest element down from it that has at least `least`, else the first two found. */
function sectionsOf(html: string, least = 3): Span[] | null {
  const body = /<body\b[^>]*>/i.exec(html);
  let from = body ? body.index + body[0].length : 0;
  let to = body ? Math.max(from, html.toLowerCase().lastIndexOf("</body")) : html.length;
  let pair: Span[] | null = null;
  for (let depth = 0; depth < 6; depth++) {
    const kids = childElements(html, from, to).filter((k) => k.tag !== "script" && k.tag !== "style");
    if (kids.length >= least) return kids;
    if (kids.length === 2) pair ??= kids;
    if (kids.length === 0) break;
    const largest = kids.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
    [from, to] = largest.inner;
  }
  return pair;
}

function reversed(html: string, kids: Span[]): string {
  const parts = kids.map((k) => html.slice(k.start, k.end)).reverse();
  let out = html.slice(0, kids[0]!.start);
  kids.forEach((k, i) => {
    out += parts[i]! + (i + 1 < kids.length ? html.slice(k.end, kids[i + 1]!.start) : "");
  });
  return out + html.slice(kids.at(-1)!.end);
}

/** The page without its pictures: <img>, <svg>, <video> and <picture> elements and CSS background images removed. */
export function removeImages(html: string): string {
  return mapStyles(
    html.replace(/<(svg|video|picture|iframe)\b[\s\S]*?<\/\1>/gi, "").replace(/<img\b[^>]*>/gi, ""),
    (property) => property !== "background-image" && property !== "background",
  );
}

/** Another typeface: serif text throughout (Tailwind's font family classes replaced, and a rule for the rest). */
export function serifFont(html: string): string {
  const swapped = mapClasses(html, (classes) =>
    classes.map((c) => c.replace(/^((?:[a-z0-9]+:)*)font-(?:sans|mono)$/, "$1font-serif")),
  );
  return swapped.replace(
    /<head\b[^>]*>|<body\b/i,
    (m) => `<style>html,body{font-family:Georgia,"DejaVu Serif",serif}</style>${m}`,
  );
}

/**
 * One section fewer: of the children of <body>, or of the largest element down from it that has at
 * least four (so that a page of header, main and footer loses one of main's sections, not all of
 * main), the middle one removed.
 */
export function dropSection(html: string): string {
  const kids = sectionsOf(html, 4);
  if (!kids || kids.length < 4) return html;
  const middle = kids[Math.floor(kids.length / 2)]!;
  return html.slice(0, middle.start) + html.slice(middle.end);
}

/** Every variant by name, for benches and tests. */
export const PAGE_VARIANTS = {
  reword,
  breakLayout,
  swapHues,
  darkMode,
  reverseSections,
  removeImages,
  serifFont,
  dropSection,
} as const;
export type PageVariant = keyof typeof PAGE_VARIANTS;
