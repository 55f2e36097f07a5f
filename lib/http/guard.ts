// What every request to the API that changes something must carry: a JSON body of a bounded size.
// The gate (lib/access/http.ts) applies it, after it has refused other sites' requests and
// admitted the viewer, so no route sees a form post or a body it would have to refuse itself.

/** The largest JSON body any route takes: a move of 200,000 characters fits, escaped, with room. */
export const MAX_JSON_BYTES = 1024 * 1024;

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export interface Refusal {
  status: 413 | 415;
  error: string;
}

/** Why a write's body is refused (413 over the limit by its declared length, 415 not JSON), or null. */
export function refuseBody(method: string, header: (name: string) => string | undefined): Refusal | null {
  if (SAFE.has(method.toUpperCase())) return null;
  const length = Number(header("content-length") ?? 0);
  if (length > MAX_JSON_BYTES)
    return { status: 413, error: `request body of ${length} bytes is over the limit of ${MAX_JSON_BYTES} bytes` };
  const type = header("content-type");
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
export async function jsonBody(
  request: Request,
  limit = MAX_JSON_BYTES,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await readJson(request, limit) };
  } catch (error) {
    if (error instanceof Error && error.name === "BodyTooLarge")
      return { ok: false, response: Response.json({ error: error.message }, { status: 413 }) };
    throw error;
  }
}
