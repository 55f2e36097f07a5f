import { decodeEntities } from "./css-subset";

// Chromium's load event waits for what the parser asked for (stylesheets, <img>, frames), not for
// what styling or layout ask for later: CSS pictures and fonts, lazy images, a poster, an image
// button, what an SVG or a media query that a capture's resize turns on points at. A slot watches
// the Network domain's events to wait for those (slot.ts, settle), which costs each page's
// browser, renderer and driver some 5 CPU-ms (150 ColBench targets in one slot, 2026-11-29), so it
// watches only pages that may. What this misses is still caught: a request the slot answers after
// an unwatched page's load event has the page rendered again, watched.

const LATE =
  /url\s*\(|image-set|@import|\\|<\s*(svg|video|audio|picture|source|object|embed|image)\b|\btype\s*=\s*["']?image|\b(loading|background|poster|srcset)\s*=/i;

/**
 * True when the page may ask for something after its load event without any script. Lenient: a
 * backslash anywhere counts (CSS escapes can spell `url(`), and markup is read with its character
 * references decoded too, as the browser reads attribute values.
 */
export function mayRequestAfterLoad(html: string): boolean {
  return LATE.test(html) || (html.includes("&") && LATE.test(decodeEntities(html)));
}
