import { placeholderSize, type ImageSize } from "./placeholder";

// What the render worker answers for each request a page makes. Nothing ever reaches the network:
// Tailwind 2 from any CDN is served from node_modules, placeholder photos are drawn locally, and
// everything else is refused (and counted, so a score can say how much of a page was missing).

export type Answer =
  | { kind: "continue" } // data:, blob: and the like never leave the browser
  | { kind: "stylesheet"; file: string } // a file of tailwindcss 2.2.19's dist/
  | {
      kind: "image";
      size: ImageSize;
      /** A service the published scorer answers with its photo (picsum, random Unsplash). */ photo: boolean;
    }
  | { kind: "stay" } // the page tries to navigate itself away: answered 204, so it stays
  | { kind: "empty-document" } // a frame's document: an empty page instead of a browser error page
  | { kind: "abort" };

/** The files of tailwindcss 2.x's dist/ folder that CDNs serve. */
const TAILWIND_FILES = new Set([
  "tailwind.min.css",
  "tailwind.css",
  "base.min.css",
  "base.css",
  "components.min.css",
  "components.css",
  "utilities.min.css",
  "utilities.css",
  "tailwind-dark.min.css",
  "tailwind-dark.css",
  "tailwind-experimental.min.css",
  "tailwind-experimental.css",
]);

/**
 * The dist file a Tailwind 2.x CDN URL names, matched by path so that any CDN works:
 * `/npm/tailwindcss@2.2.19/dist/tailwind.min.css` (jsDelivr), `/tailwindcss@^2/dist/...` (unpkg),
 * `/ajax/libs/tailwindcss/2.2.19/tailwind.min.css` (cdnjs). Any 2.x version gets 2.2.19, the last.
 */
export function tailwindFile(url: string): string | null {
  let path: string;
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  const m =
    /\/tailwindcss@[~^]?2(?:\.[\w.-]*)?\/dist\/([\w.-]+\.css)$/i.exec(path) ??
    /\/ajax\/libs\/tailwindcss\/2(?:\.[\w.-]*)?\/([\w.-]+\.css)$/i.exec(path);
  const file = m?.[1]?.toLowerCase();
  return file && TAILWIND_FILES.has(file) ? file : null;
}

export interface RequestFacts {
  url: string;
  isNavigation: boolean;
  isMainFrame: boolean;
}

export function classifyRequest({ url, isNavigation, isMainFrame }: RequestFacts): Answer {
  if (/^(data|blob|about|chrome-error):/i.test(url)) return { kind: "continue" };
  if (isNavigation) return isMainFrame ? { kind: "stay" } : { kind: "empty-document" };
  const file = tailwindFile(url);
  if (file) return { kind: "stylesheet", file };
  const size = placeholderSize(url);
  if (size) return { kind: "image", size, photo: isPhotoService(url) };
  return { kind: "abort" };
}

/**
 * The published scorer rewrites picsum.photos/W/H and source.unsplash.com/random/WxH URLs of an
 * answer to picsum.photos/id/48/W/H, and every official target uses that photo; so with the photo
 * supplied, these hosts get it (other picsum ids too: only photo 48 is at hand).
 */
function isPhotoService(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  return host === "picsum.photos" || host.endsWith(".picsum.photos") || host === "source.unsplash.com";
}
