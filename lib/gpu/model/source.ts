// Where a model's files come from: a folder on this machine (node/folder-source.ts) or URLs a page
// can fetch (the studio serves a configured folder). Weights are read as streams, never whole.

export interface WeightSource {
  /** The folder or URL, for messages. */
  where: string;
  /** A small file's text (config, tokenizer), or null when there is no such file. */
  text(name: string): Promise<string | null>;
  size(name: string): Promise<number>;
  /** The file's bytes from the start, as they arrive. */
  stream(name: string): Promise<ReadableStream<Uint8Array>>;
  /** The file's bytes from `offset` on, without reading those before where the source can (optional). */
  streamFrom?(name: string, offset: number): Promise<ReadableStream<Uint8Array>>;
}

/** `stream` without its first `n` bytes (for a server that answers a range request with the whole file). */
export function dropFirst(stream: ReadableStream<Uint8Array>, n: number): ReadableStream<Uint8Array> {
  let left = n;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (left >= chunk.byteLength) {
          left -= chunk.byteLength;
          return;
        }
        controller.enqueue(left ? chunk.subarray(left) : chunk);
        left = 0;
      },
    }),
  );
}

/**
 * A file's size from a response's headers: Content-Length, else X-File-Size (the studio's weights
 * routes send both, and Next's server drops the first from a route's answer); 0 where neither says.
 */
export function sizeOf(headers: Headers): number {
  const value = Number(headers.get("content-length") ?? headers.get("x-file-size") ?? 0);
  return Number.isFinite(value) ? value : 0;
}

/** Files under a base URL: `${base}/${name}` (the studio's weights routes, or any static host). */
export function urlSource(base: string, fetchFile: typeof fetch = fetch): WeightSource {
  const url = (name: string) => `${base.replace(/\/$/, "")}/${name.split("/").map(encodeURIComponent).join("/")}`;
  const get = async (name: string, init?: RequestInit) => {
    const response = await fetchFile(url(name), init);
    if (!response.ok && response.status !== 404) throw new Error(`${url(name)}: HTTP ${response.status}`);
    return response;
  };
  return {
    where: base,
    async text(name) {
      const response = await get(name);
      return response.status === 404 ? null : response.text();
    },
    async size(name) {
      const response = await get(name, { method: "HEAD" });
      if (response.status === 404) throw new Error(`${url(name)}: no such file`);
      return sizeOf(response.headers);
    },
    async stream(name) {
      const response = await get(name);
      if (response.status === 404 || !response.body) throw new Error(`${url(name)}: no such file`);
      return response.body;
    },
    async streamFrom(name, offset) {
      const response = await get(name, offset ? { headers: { Range: `bytes=${offset}-` } } : undefined);
      if (response.status === 404 || !response.body) throw new Error(`${url(name)}: no such file`);
      return response.status === 206 || !offset ? response.body : dropFirst(response.body, offset);
    },
  };
}

export async function jsonFile(source: WeightSource, name: string): Promise<unknown> {
  const text = await source.text(name);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${source.where}/${name}: not valid JSON (${(error as Error).message})`);
  }
}
