import { StringDecoder } from "node:string_decoder";
import type { Readable, Writable } from "node:stream";
import { once } from "node:events";

// PostgreSQL's COPY text format, both ways, for the backup file's rows (JSON arrays of each column's
// text form or null): a backup reads a table with COPY … TO STDOUT and a restore into PostgreSQL
// writes it with COPY … FROM STDIN, at the pace pg_dump and pg_restore move rows, instead of a
// cursor's batches and INSERTs of JSON. In the format a row is one line, columns are separated by
// tabs, null is \N, and a backslash escapes a backslash, the tab, newline, carriage return and the
// control characters \b \f \v, which is all COPY writes escaped.

const UNESCAPE: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
const ESCAPE: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One column of a COPY text line, as the text PostgreSQL's output gave (null for \N). */
export function fromCopyField(field: string): string | null {
  if (field === "\\N") return null;
  return field.includes("\\") ? field.replace(/\\(.)/gs, (_, c: string) => UNESCAPE[c] ?? c) : field;
}

/** One row for COPY … FROM STDIN (text format), with its newline. */
export function toCopyLine(values: Array<string | null>): string {
  let line = "";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) line += "\t";
    line += value === null || value === undefined ? "\\N" : value.replace(/[\\\n\r\t]/g, (c) => ESCAPE[c]!);
  }
  return line + "\n";
}

/**
 * Reads a COPY … TO STDOUT stream and hands on each row as its backup line (a JSON array and its
 * newline), gathered into pieces of about `pieceChars`; returns how many rows it read.
 */
export async function copyToLines(
  stream: Readable,
  emit: (piece: string) => Promise<void>,
  pieceChars = 1 << 20,
): Promise<number> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let piece = "";
  let count = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n", start); end !== -1; end = text.indexOf("\n", start)) {
      piece += JSON.stringify(text.slice(start, end).split("\t").map(fromCopyField)) + "\n";
      count++;
      start = end + 1;
    }
    rest = text.slice(start);
    if (piece.length >= pieceChars) {
      await emit(piece);
      piece = "";
    }
  }
  rest += decoder.end();
  if (rest.length) throw new Error(`COPY ended inside a row (${rest.length} characters without a newline)`);
  if (piece) await emit(piece);
  return count;
}

/** Writes to a COPY … FROM STDIN stream, waiting when it asks to. */
export async function writeCopy(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}
