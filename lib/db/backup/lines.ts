import fs from "node:fs";
import zlib from "node:zlib";

// The text lines of a gzip file, each held to a length, and the whole to a decompressed size: a
// backup is untrusted input, and readline would build a 700 MB line in memory until V8 gives up
// with a RangeError and a stack trace. Lines are split on bytes and decoded whole, so a character
// cut between two chunks arrives intact.

export interface LineLimits {
  /** Bytes in one line (a render's base64 is the longest a studio writes). */
  maxLineBytes: number;
  /** Bytes of the whole file once decompressed. */
  maxTotalBytes: number;
}

export const LINE_LIMITS: LineLimits = {
  maxLineBytes: 128 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024 * 1024,
};

export class LineLimitError extends Error {}

const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

/** Yields [line number from 1, text]; throws LineLimitError naming the line that went past a limit. */
export async function* gzipLines(file: string, limits: LineLimits = LINE_LIMITS): AsyncGenerator<[number, string]> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  let parts: Buffer[] = [];
  let held = 0;
  let total = 0;
  let number = 0;
  const take = (piece: Buffer) => {
    held += piece.length;
    if (held > limits.maxLineBytes) {
      throw new LineLimitError(
        `line ${number + 1} is longer than ${mib(limits.maxLineBytes)}, more than any line a studio writes`,
      );
    }
    parts.push(piece);
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limits.maxTotalBytes)
        throw new LineLimitError(`it decompresses to more than ${mib(limits.maxTotalBytes)}`);
      let start = 0;
      for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, end));
        number++;
        yield [number, Buffer.concat(parts, held).toString("utf8")];
        parts = [];
        held = 0;
        start = end + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
    }
    if (held > 0) {
      number++;
      yield [number, Buffer.concat(parts, held).toString("utf8")];
    }
  } finally {
    input.destroy();
  }
}
