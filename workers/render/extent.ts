// The rectangle the published scorer's screenshot covers, measured in Chromium.
//
// That screenshot (Firefox, Marionette's full screenshot) is documentElement.scrollWidth x
// scrollHeight as Firefox reports them. In standards mode Chromium reports the same numbers. In
// quirks mode (every official target: none has a doctype) it does not: Chromium stretches the html
// and body elements to the window (the "fills the viewport" quirks), so its scrollHeight is at
// least the window's, while Firefox's is the content's. Giving the two elements an explicit
// `height: max-content` while measuring turns the stretch off without moving anything else
// (max-content is what an auto height is, for a block), so Chromium's own scrollHeight then is
// Firefox's: equal on 38 of the first 40 official targets and within 6 px on the rest (those
// differ in line layout, not in the rule; bench/render-parity.ts measures it on more).
// Elements whose height the page sets are left alone: they are not stretched.

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
  return { width: Math.max(1, Math.min(extent.width, max.maxWidth)), height: Math.max(1, Math.min(extent.height, max.maxHeight)) };
}
