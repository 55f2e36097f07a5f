import { RENDERER_REVISION, type RenderVerification } from "../../lib/scoring/frontend/render-protocol";
import { decodeEntities, mayChangeAfterParse } from "./css-subset";
import type { Extent } from "./extent";

// What a slot checks before it calls a capture "ok". Pages are written into a reused document, and a
// page can leave something pending there that outlives it: a meta refresh's timer (no script, so the
// slot used to be reused), or a navigation already on its way. It then lands on a later page written
// into the same document: that page is captured as the empty document it was navigated to (a
// 1366x8 white strip in the paper profile), and nothing about the capture itself said so. So a slot
// is replaced after any page that may navigate, and every capture is checked after it is taken:
// still the document the page was written into, the page's extent no larger than the picture, and
// content in the document when the markup has some. A capture that fails a check is a failed render
// (the pool renders it again in a fresh browser, then keeps the result with the reason).

/**
 * True when the page may navigate its own document later without any script: a meta refresh (its
 * http-equiv value may be written with character references, so it is looked for decoded too).
 * Answered 204 or not, its timer stays with the document, so the slot is not reused after it.
 */
export function mayNavigateLater(html: string): boolean {
  if (!/http-equiv/i.test(html)) return false;
  return /refresh/i.test(html) || (html.includes("&") && /refresh/i.test(decodeEntities(html)));
}

/**
 * Whether the page's markup puts anything in its body (elements or text, as the parser would place
 * them). A page with scripts or nested documents decides its content at run time: nothing is
 * expected of it. Lenient where unsure: an unclosed head or comment counts as nothing.
 */
export function promisesContent(html: string): boolean {
  if (mayChangeAfterParse(html)) return false;
  const rest = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, "")
    .replace(/<(head|title|style|noscript|template|textarea|xmp)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, "")
    .replace(/<\/?(?:html|head|body|meta|link|base)\b[^>]*>|<!doctype[^>]*>/gi, "");
  return decodeEntities(rest).trim() !== "";
}

export function navigatedAway(when: string, to?: string): string {
  return `the page was navigated away from the document it was written into${to ? ` (to ${to})` : ""} ${when}`;
}

/** The page's JavaScript answer to "is there anything in your body", for the checks (an expression over `d`, the document). */
export const DOCUMENT_HAS_CONTENT = `(!!d.body && (d.body.children.length > 0 || d.body.textContent.trim() !== ""))`;
/** Whether the document holds a meta refresh, however its markup spelt it (an expression over `d`). */
export const DOCUMENT_HAS_REFRESH = `Array.prototype.some.call(d.querySelectorAll("meta[http-equiv]"), (m) => /refresh/i.test(m.httpEquiv))`;

export interface CaptureFacts {
  /** Still the document the page was written into, with no navigation of the frame committed since. */
  sameDocument: boolean;
  /** Where the frame went instead, when known. */
  navigatedTo?: string;
  /** The capture's rectangle as the slot's own rule gives it when measured again after the capture (clipped as the capture is). */
  extent: Extent | null;
  /** Whether the document had anything in its body when checked. */
  hasContent: boolean;
}

/**
 * The verdict on a capture: how it was verified, or why it is not a good render. `shot` is the
 * picture's size; `expectContent` is promisesContent() of the page written.
 */
export function verifyCapture(
  shot: Extent,
  facts: CaptureFacts,
  expectContent: boolean,
): { verified: RenderVerification } | { why: string; navigated?: true } {
  if (!facts.sameDocument)
    return { why: navigatedAway("before its capture was checked", facts.navigatedTo), navigated: true };
  if (!(shot.width > 0 && shot.height > 0)) return { why: `the capture is empty (${shot.width}x${shot.height})` };
  if (!facts.extent) return { why: "the page's extent could not be measured again after its capture" };
  if (shot.width < facts.extent.width || shot.height < facts.extent.height) {
    return {
      why: `the capture (${shot.width}x${shot.height}) is smaller than the page's laid-out extent measured after it (${facts.extent.width}x${facts.extent.height})`,
    };
  }
  if (expectContent && !facts.hasContent)
    return { why: "the capture is of an empty document, though the page's markup has content" };
  return {
    verified: {
      revision: RENDERER_REVISION,
      document: "same",
      extent: { width: facts.extent.width, height: facts.extent.height },
      content: expectContent ? "found" : "not expected",
    },
  };
}
