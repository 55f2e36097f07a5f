import { createHash } from "node:crypto";
import type { SqlQuery } from "@prisma/driver-adapter-utils";

// On a PostgreSQL server, Prisma's adapter sends every statement unnamed, so the server parses and
// plans it at each run; the labelling desk's one-statement label-and-next (lib/store/label-next.ts)
// is a dozen CTEs, and planning it was a share of every key press's time. Named, a statement is
// parsed once per connection and the server keeps its plan (a generic one once that is no worse).
// node-postgres never closes a named statement, so only texts seen twice get a name (one-off
// statements, such as a search with its span inlined, stay unnamed) and at most `limit` of them:
// the server's memory per connection stays bounded whatever the studio runs.
//
// Poolers that hand a session's statements to another (PgBouncer in transaction mode before 1.21)
// cannot keep named statements: COLBENCH_PG_NAMED_STATEMENTS=off sends them all unnamed again.

/** A name's prefix, so they can be told from others' in pg_prepared_statements. */
export const STATEMENT_PREFIX = "colbench_";
/** Distinct texts kept named, per process (each connection prepares those it runs). */
const LIMIT = 256;
/** Texts counted while waiting for a second sighting; forgotten all at once when full. */
const WATCH = 4096;

/** The adapter's `statementNameGenerator`: a stable name for a text seen before, "" (unnamed) otherwise. */
export function statementNames(limit = LIMIT, watch = WATCH): (query: SqlQuery) => string {
  const named = new Map<string, string>();
  let seenOnce = new Set<string>();
  return ({ sql }) => {
    const name = named.get(sql);
    if (name !== undefined) return name;
    if (named.size >= limit) return "";
    if (!seenOnce.has(sql)) {
      if (seenOnce.size >= watch) seenOnce = new Set();
      seenOnce.add(sql);
      return "";
    }
    seenOnce.delete(sql);
    const made = `${STATEMENT_PREFIX}${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
    named.set(sql, made);
    return made;
  };
}

/** Whether this process names its statements (COLBENCH_PG_NAMED_STATEMENTS=off says no). */
export function namesStatements(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.COLBENCH_PG_NAMED_STATEMENTS !== "off";
}
