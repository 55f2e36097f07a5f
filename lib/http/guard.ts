// What every request that changes something must show before a route sees it: that it comes from
// the studio's own pages (not another site a studio user happens to open), with a JSON body of a
// bounded size. Browsers send Sec-Fetch-Site and Origin on every cross-site POST, so a page
// elsewhere cannot start a run or slip in a move; scripts (curl, the CLI) send neither and pass.

/** The largest JSON body any route takes: a move of 200,000 characters fits, escaped, with room. */
export const MAX_JSON_BYTES = 1024 * 1024;

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export interface Refusal {
  status: 403 | 413 | 415;
  error: string;
}

export interface GuardedRequest {
  method: string;
  /** The studio's own origin as this request reached it, e.g. http://127.0.0.1:3000. */
  origin: string;
  headers: Headers;
}

export function refuseMutation(request: GuardedRequest): Refusal | null {
  if (SAFE.has(request.method.toUpperCase())) return null;
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") {
    return { status: 403, error: `cross-site request refused (Sec-Fetch-Site: ${site}): changes come only from the studio's own pages` };
  }
  // Under Referrer-Policy: no-referrer browsers may send "Origin: null" from the studio's own page;
  // Sec-Fetch-Site (which no page can set) said same-origin above, so that null is the studio's.
  const origin = request.headers.get("origin") === "null" && site === "same-origin" ? null : request.headers.get("origin");
  if (origin && origin !== request.origin) {
    return { status: 403, error: `cross-site request refused (Origin ${origin} is not ${request.origin})` };
  }
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_JSON_BYTES) return { status: 413, error: `request body of ${length} bytes is over the limit of ${MAX_JSON_BYTES} bytes` };
  const type = request.headers.get("content-type");
  if ((type || length > 0) && !/^application\/json\s*(;|$)/i.test(type ?? "")) {
    return { status: 415, error: `request body must be JSON (Content-Type: application/json), got ${type ?? "none"}` };
  }
  return null;
}

export class BodyTooLarge extends Error {
  override readonly name = "BodyTooLarge";
}

/**
 * A route's JSON body, read up to `limit` bytes (a chunked body carries no length for the guard to
 * check). Resolves to null for a body that is not JSON; throws BodyTooLarge past the limit.
 */
export async function readJson(request: Request, limit = MAX_JSON_BYTES): Promise<unknown> {
  if (!request.body) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(`request body is over the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return null;
  }
}

/** A route's JSON body, or the 413 to answer with when it is over the limit. */
export async function jsonBody(request: Request, limit = MAX_JSON_BYTES): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await readJson(request, limit) };
  } catch (error) {
    if (error instanceof Error && error.name === "BodyTooLarge") return { ok: false, response: Response.json({ error: error.message }, { status: 413 }) };
    throw error;
  }
}
