// ColBench pages link Tailwind 2.2.19 from a CDN and photos from placeholder services, neither
// reachable offline. These rewrites point them at the studio's own copies.

const TAILWIND_CDN = /https?:\/\/[^"'\s)]*tailwindcss@2[^"'\s)]*\/dist\/tailwind(?:\.min)?\.css/g;
const PICSUM = /https?:\/\/picsum\.photos\/(?:id\/\d+\/)?(\d+)(?:\/(\d+))?[^"'\s)]*/g;

export const LOCAL_TAILWIND_PATH = "/vendor/tailwind-2.2.19.min.css";

export function rewriteForOfflinePreview(html: string): string {
  return html
    .replace(TAILWIND_CDN, LOCAL_TAILWIND_PATH)
    .replace(PICSUM, (_match, w: string, h?: string) => `/api/placeholder/${w}/${h ?? w}`);
}

/** Everything but the studio's own stylesheet and placeholders is refused, scripts included. */
export const PREVIEW_CSP =
  "sandbox; default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:";

const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/**
 * A page for an `<iframe sandbox srcdoc>`: rewritten for offline use and carrying its own policy,
 * so it can load the studio's stylesheet and placeholders and nothing else (no scripts, no network).
 */
export function previewDocument(html: string, origin: string): string {
  const policy = `default-src 'none'; style-src ${origin} 'unsafe-inline'; img-src ${origin} data:; font-src ${origin} data:`;
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  // A srcdoc document resolves the studio's relative paths against the page that holds it.
  const page = rewriteForOfflinePreview(html);
  const doctype = DOCTYPE.exec(page);
  // The policy must come first (before any stylesheet), but after a doctype, which keeps standards mode.
  return doctype ? doctype[0] + meta + page.slice(doctype[0].length) : meta + page;
}
