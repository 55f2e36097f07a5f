import type { Store } from "../store";

// Next.js renders the 404 of a dynamic page that calls notFound() on the client only: the HTML
// is an empty shell and the page exists only in the streamed payload, so curl and other scripts
// get nothing readable (vercel/next.js#62228). The studio's front asks first whether the record a
// detail page names exists, and sends a missing one to an unmatched path, whose not-found page
// Next renders on the server like any other. The page reads the original path from the gate.

export const MISSING_PREFIX = "/__missing";

const DETAIL = /^\/(runs|episodes|tasks)\/([^/?]+)$|^\/play\/([^/?]+)\/(agent|collaborator)$/;

/** The path to hand Next instead, or null when the request may go as it came. */
export async function missingRecordPath(store: Store, method: string, url: string): Promise<string | null> {
  if (method !== "GET" && method !== "HEAD") return null;
  const path = url.split("?")[0]!;
  const m = DETAIL.exec(path);
  if (!m) return null;
  const kind = m[1] ?? "episodes";
  const text = m[2] ?? m[3]!;
  // Only numeric ids name records; other names (/runs/new) are the studio's own pages.
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  const exists = !Number.isSafeInteger(id)
    ? false
    : kind === "runs"
      ? (await store.runs.find(id)) !== null
      : kind === "tasks"
        ? await store.tasks.exists(id)
        : (await store.episodes.ref(id)) !== null;
  return exists ? null : `${MISSING_PREFIX}${path}`;
}
