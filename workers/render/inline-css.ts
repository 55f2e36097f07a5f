import { decodeEntities } from "./css-subset";
import { tailwindFile } from "./intercept";

// A static page's Tailwind stylesheet written into the page itself, as a data: URL in its <link>,
// instead of being fetched: the request would cost the browser process (interception, the network
// service, the Network domain's events) and the worker (Fetch.requestPaused, the body sent back
// through the protocol) about 4 CPU-ms of the page's ~75 (bench/render.ts, 2026-11-28). The sheet
// is the same bytes the request would have been answered with (Tailwind's files hold no url() that
// a data: base would resolve differently), and a <link> element is never drawn, so the pixels are
// the same. Anything less plain is left to the request.

/** Elements whose text is shown as written: a <link> there is text, and rewriting it would show. */
const SHOWN_AS_TEXT = /<\s*(textarea|xmp|plaintext|listing)\b/i;
const LINK_TAG = /<link\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)("[^"]*"|'[^']*'|[^\s"'>]+)/i;

/**
 * `html` with each <link href> that names a Tailwind 2 file rewritten to a data: URL of what
 * `sheet(file)` answers; null when nothing was rewritten (or the page is not plain enough).
 */
export function inlineTailwind(html: string, sheet: (file: string) => string): string | null {
  if (SHOWN_AS_TEXT.test(html) || !/<link\b/i.test(html)) return null;
  const data = new Map<string, string>();
  let changed = false;
  const out = html.replace(LINK_TAG, (tag) =>
    tag.replace(HREF, (whole, lead: string, value: string) => {
      const quoted = value[0] === '"' || value[0] === "'";
      const url = decodeEntities(quoted ? value.slice(1, -1) : value).trim();
      const file = tailwindFile(url);
      if (!file) return whole;
      let uri = data.get(file);
      if (uri === undefined) {
        uri = `data:text/css;charset=utf-8;base64,${Buffer.from(sheet(file)).toString("base64")}`;
        data.set(file, uri);
      }
      changed = true;
      return `${lead}"${uri}"`;
    }),
  );
  return changed ? out : null;
}
