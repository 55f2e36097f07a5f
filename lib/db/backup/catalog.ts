import type { ClientBase } from "pg";

// What the database itself says its schema holds: the backup writes it, and a restore holds a file
// to it (a file's column types are never put into SQL; the catalog's are, once they agree).

/** Tables of the session's current schema, with the columns a restore can write (generated ones are made again). */
const COLUMNS_SQL = `
SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type"
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid
 WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
   AND a.attgenerated = '' AND c.relname <> '_prisma_migrations'
 ORDER BY c.relname, a.attnum`;

const SEQUENCES_SQL = `
SELECT c.relname AS "sequence"
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = current_schema() AND c.relkind = 'S'
 ORDER BY c.relname`;

/** Each table's columns as [name, type as format_type() names it], in column order. */
export async function schemaColumns(client: ClientBase): Promise<Map<string, Array<[string, string]>>> {
  const tables = new Map<string, Array<[string, string]>>();
  for (const row of (await client.query<{ table: string; column: string; type: string }>(COLUMNS_SQL)).rows) {
    const columns = tables.get(row.table) ?? [];
    columns.push([row.column, row.type]);
    tables.set(row.table, columns);
  }
  return tables;
}

export async function schemaSequences(client: ClientBase): Promise<string[]> {
  return (await client.query<{ sequence: string }>(SEQUENCES_SQL)).rows.map((row) => row.sequence);
}
