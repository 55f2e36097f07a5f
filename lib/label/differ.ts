/** Where two texts part: the length of their common start and of their common end (not overlapping it). */
export function differingSpan(a: string, b: string): { prefix: number; suffix: number } {
  let prefix = 0;
  const shortest = Math.min(a.length, b.length);
  while (prefix < shortest && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}
