export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${(100 * value).toFixed(1)}%`;
}

export function reward(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : value.toFixed(3);
}

/**
 * The start of a long text for a one-line cell that the browser cuts anyway (`truncate`): the rest
 * would only weigh on the page twice over (in its HTML and again in React's payload). The cell's
 * title keeps the whole text.
 */
export function lineStart(text: string, chars = 160): string {
  return text.length > chars ? `${text.slice(0, chars).trimEnd()}…` : text;
}
