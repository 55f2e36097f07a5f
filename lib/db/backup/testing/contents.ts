import { quoteIdent } from "../format";

/**
 * Every table of the database at `url` (but the migration log) as sorted lines of text: two
 * databases hold the same data when these are equal. Generated columns are included, so a
 * restore that recomputed one differently would show.
 */
export async function tableContents(url: string): Promise<Record<string, string[]>> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' ORDER BY 1`,
    );
    const contents: Record<string, string[]> = {};
    for (const { name } of tables.rows) {
      const rows = await client.query<{ line: string }>(`SELECT t::text AS line FROM ${quoteIdent(name)} t`);
      contents[name] = rows.rows.map((r) => r.line).sort();
    }
    return contents;
  } finally {
    await client.end();
  }
}
