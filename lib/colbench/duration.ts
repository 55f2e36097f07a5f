/** "10m", "90s", "1h", "500ms" or plain seconds, in milliseconds (NaN when it is none of these). */
export function durationMs(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/.exec(text);
  return m
    ? Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 } as Record<string, number>)[m[2] ?? "s"]!
    : Number.NaN;
}

/** A duration given on the command line, in seconds, or an error naming the option. */
export function parseDuration(text: string, name = "--give-up"): number {
  const ms = durationMs(text);
  if (!(ms > 0)) throw new Error(`${name}: expected a duration such as 10m, 90s or 1h, got "${text}"`);
  return ms / 1000;
}
