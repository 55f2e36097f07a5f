/**
 * Text to look for inside a LIKE pattern, matched as written: `%`, `_` and the escape character
 * itself (PostgreSQL's default, backslash) lose their wildcard meaning. Prisma's `contains`,
 * `startsWith` and `endsWith` put the value into a LIKE pattern without escaping it.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
