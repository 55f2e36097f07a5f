// The rectangle the published scorer's screenshot covers, measured in Chromium.
//
// That screenshot (Firefox, Marionette's full screenshot) is documentElement.scrollWidth x
// scrollHeight as Firefox reports them. In standards mode Chromium reports the same numbers. In
// quirks mode (every official target: none has a doctype) it does not: Chromium stretches the html
// and body elements to the window (the "fills the viewport" quirks), so its scrollHeight is at
// least the window's, while Firefox's is the content's. Giving the two elements an explicit
// `height: max-content` while measuring turns the stretch off without moving anything else
// (max-content is what an auto height is, for a block), so Chromium's own scrollHeight then is
// Firefox's: the same size on 227 of 240 pages of bench/render-parity.ts (120 official targets and
// an answer made from each); the rest differ in how lines of text wrap, not in the rule.
// Elements whose height the page sets are left alone: they are not stretched. A body that is a flex
// or grid container needs more (below): 9 of the 1000 official targets have one.

/** A function expression for Runtime.evaluate; returns [scrollWidth, scrollHeight, compatMode]. */
export const MEASURE_DOCUMENT_EXTENT = `(() => {
  const de = document.documentElement;
  if (!de) return [0, 0, document.compatMode];
  const undo = [];
  if (document.compatMode === "BackCompat") {
    for (const el of [de, document.body]) {
      if (!el || !el.computedStyleMap) continue;
      const h = el.computedStyleMap().get("height");
      if (!h || String(h) !== "auto") continue;
      undo.push([el, el.getAttribute("style")]);
      el.style.setProperty("height", "max-content", "important");
    }
  }
  // A flex or grid body stays stretched to the window whatever height it is given in words (its
  // items are laid out in the stretched box), so it gets a height in pixels instead: the least at
  // which neither it nor any of its items overflows, which is the height its content gives it in
  // Firefox (a dozen layouts, for the few pages with such a body).
  const body = document.body;
  if (undo.some(([el]) => el === body) && /flex|grid/.test(getComputedStyle(body).display)) {
    const items = [...body.children].filter((c) => c.getClientRects().length > 0);
    // As scroll containers, items count their end padding and last margin in scrollHeight (a flex
    // or grid item lays out its content on its own either way, so nothing inside moves).
    for (const c of items) {
      undo.push([c, c.getAttribute("style")]);
      c.style.setProperty("overflow", "hidden", "important");
    }
    const fits = (h) => {
      body.style.setProperty("height", h + "px", "important");
      return body.scrollHeight <= body.clientHeight && items.every((c) => c.scrollHeight <= c.clientHeight);
    };
    let lo = 0;
    let hi = Math.ceil(body.getBoundingClientRect().height);
    if (fits(hi)) {
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (fits(mid)) hi = mid;
        else lo = mid;
      }
      fits(hi);
    } else body.style.setProperty("height", "max-content", "important");
  }
  const size = [de.scrollWidth, de.scrollHeight, document.compatMode];
  for (const [el, style] of undo) style === null ? el.removeAttribute("style") : el.setAttribute("style", style);
  return size;
})()`;

export interface Extent {
  width: number;
  height: number;
}

/** Clipped to the profile's largest capture. */
export function clipExtent(extent: Extent, max: { maxWidth: number; maxHeight: number }): Extent {
  return {
    width: Math.max(1, Math.min(extent.width, max.maxWidth)),
    height: Math.max(1, Math.min(extent.height, max.maxHeight)),
  };
}
