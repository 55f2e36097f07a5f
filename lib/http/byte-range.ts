// One byte range of a file (RFC 9110 §14.1.2), as a browser fetching part of a checkpoint asks for it:
// `bytes=START-`, `bytes=START-END` or `bytes=-SUFFIX`. Several ranges in one header are answered
// whole (a server may), so the caller sends the file with 200.

export type ByteRange = { start: number; end: number } | "unsatisfiable" | null;

/** The inclusive range `header` asks for within a file of `size` bytes; null: send the whole file. */
export function parseByteRange(header: string | null, size: number): ByteRange {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
