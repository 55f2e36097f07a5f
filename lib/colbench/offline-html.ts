import { placeholderSize } from "./placeholder-url";

// ColBench pages link Tailwind 2.2.19 from a CDN and photos from placeholder services, neither
// reachable offline. These rewrites point them at the studio's own copies.

const TAILWIND_CDN = /^https?:\/\/[^"'\s)]*tailwindcss@2[^"'\s)]*\/dist\/tailwind(?:\.min)?\.css$/;
const URL_IN_PAGE = /https?:\/\/[^"'\s)<>]+/g;

export const LOCAL_TAILWIND_PATH = "/vendor/tailwind-2.2.19.min.css";

/**
 * Points the page's Tailwind stylesheet and placeholder images at the studio's own copies, by the
 * renderer's own rule (the same URLs, answered with the same pictures); anything else stays, and
 * the preview's policy refuses it as the renderer does.
 */
export function rewriteForOfflinePreview(html: string): string {
  return html.replace(URL_IN_PAGE, (found) => {
    if (TAILWIND_CDN.test(found)) return LOCAL_TAILWIND_PATH;
    const url = found.replace(/&amp;/g, "&");
    return placeholderSize(url) ? `/api/placeholder?url=${encodeURIComponent(url)}` : found;
  });
}

/** How a preview (a sandbox with no scripts) may differ from the page the scorer rendered. */
export function previewNotes(html: string): string[] {
  const notes: string[] = [];
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)];
  const external = scripts.filter((m) => /\bsrc\s*=/i.test(m[1]!)).length;
  if (scripts.length > external)
    notes.push(
      `${scripts.length - external} inline script${scripts.length - external === 1 ? "" : "s"}: the scorer's browser runs them, this preview does not — the scored screenshot shows what they did`,
    );
  if (external)
    notes.push(
      `${external} script${external === 1 ? "" : "s"} from elsewhere (e.g. a CDN's Tailwind 3): blocked, as the scorer blocks them`,
    );
  const withoutScripts = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  const outside = [
    ...new Set(
      [...withoutScripts.matchAll(URL_IN_PAGE)]
        .map((m) => m[0].replace(/&amp;/g, "&"))
        .filter((u) => !TAILWIND_CDN.test(u) && !placeholderSize(u) && !/^https?:\/\/(www\.)?w3\.org\//.test(u)),
    ),
  ];
  if (outside.length)
    notes.push(
      `${outside.length} other address${outside.length === 1 ? "" : "es"} (images, fonts, stylesheets): not fetched, by the scorer either`,
    );
  return notes;
}

/** Everything but the studio's own stylesheet and placeholders is refused, scripts included; only the studio's own pages may frame it. */
export const PREVIEW_CSP =
  "sandbox; default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'self'";

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
