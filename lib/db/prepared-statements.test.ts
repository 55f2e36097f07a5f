import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { PreparedStatements } from "./prepared-statements";

// The owner's statements on the embedded database run as named prepared statements: the same rows
// and errors as PGlite's own query, a plan kept between runs, and nothing lost when the statements
// are dropped or go stale under it.

describe("prepared statements on PGlite", () => {
  let pg: PGlite;
  let statements: PreparedStatements;
  const count = async () =>
    (await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0]!.n;

  beforeAll(async () => {
    pg = await PGlite.create();
    statements = new PreparedStatements(pg, 4);
    await pg.exec(`CREATE TABLE t (id serial PRIMARY KEY, a int[], j jsonb, d timestamp, b bytea, s text UNIQUE)`);
  });
  afterAll(async () => {
    await pg?.close();
  });

  it("answers the text PostgreSQL sent, as PGlite's own query does, and counts affected rows", async () => {
    const sql = `INSERT INTO t (a, j, d, b, s) VALUES ($1, $2, $3, $4, $5) RETURNING "id", "a", "j", "d", "b", "s"`;
    const params = [[1, 2], { x: "é" }, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), new Uint8Array([1, 255]), "one"];
    const ours = await statements.query(sql, params);
    expect(ours.rows).toEqual([["1", "{1,2}", '{"x": "é"}', "2026-01-02 03:04:05", "\\x01ff", "one"]]);
    expect(ours.fields.map((f) => f.name)).toEqual(["id", "a", "j", "d", "b", "s"]);
    const raw = Object.fromEntries(Object.keys(pg.parsers).map((k) => [k, (text: string) => text]));
    const theirs = await pg.query(sql, [...params.slice(0, 4), "two"], { rowMode: "array", parsers: raw });
    expect(theirs.fields).toEqual(ours.fields);
    expect((await statements.query(`UPDATE t SET s = s || $1 WHERE id > $2`, ["!", 0])).affectedRows).toBe(2);
    expect((await statements.query(`SELECT $1::text IS NULL AS "isNull"`, [null])).rows).toEqual([["t"]]);
  });

  it("keeps one statement per SQL text and plans it generically once that is no worse", async () => {
    for (let i = 0; i < 8; i++) await statements.query(`SELECT count(*) FROM t WHERE id = $1`, [i]);
    const [kept] = (
      await pg.query<{ generic: number; custom: number }>(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = 'SELECT count(*) FROM t WHERE id = $1'`,
      )
    ).rows;
    expect(kept!.generic + kept!.custom).toBe(8);
    expect(kept!.generic).toBeGreaterThan(0);
  });

  it("throws PostgreSQL's error with its code and leaves the session usable", async () => {
    const error = await statements
      .query(`INSERT INTO t (s) VALUES ($1)`, ["one!"])
      .catch((e: unknown) => e as Record<string, unknown>);
    expect(error).toMatchObject({ code: "23505", severity: "ERROR", constraint: "t_s_key" });
    await expect(statements.query(`SELECT nope FROM t`, [])).rejects.toMatchObject({ code: "42703" });
    expect((await statements.query(`SELECT 1`, [])).rows).toEqual([["1"]]);
    expect(pg.isInTransaction()).toBe(false);
  });

  it("prepares again what was dropped (DEALLOCATE ALL) or went stale (the table changed), and closes the least recently used", async () => {
    await statements.query(`SELECT * FROM t ORDER BY id`, []);
    await pg.exec("DEALLOCATE ALL");
    expect((await statements.query(`SELECT * FROM t ORDER BY id`, [])).rows).toHaveLength(2);
    await pg.exec(`ALTER TABLE t ADD COLUMN extra int DEFAULT 7`);
    const after = await statements.query(`SELECT * FROM t ORDER BY id`, []);
    expect(after.fields.map((f) => f.name)).toContain("extra");
    for (let i = 0; i < 10; i++) await statements.query(`SELECT ${i} AS n`, []);
    expect(await count()).toBe(4);
  });

  it("runs inside an open transaction, which then commits or rolls back as a whole", async () => {
    await pg.exec("BEGIN");
    await statements.query(`INSERT INTO t (s) VALUES ($1)`, ["in a transaction"]);
    await pg.exec("ROLLBACK");
    expect((await statements.query(`SELECT count(*)::int FROM t WHERE s = $1`, ["in a transaction"])).rows).toEqual([
      ["0"],
    ]);
    await pg.exec("BEGIN");
    await expect(statements.query(`SELECT nope`, [])).rejects.toMatchObject({ code: "42703" });
    // The failed statement aborted the transaction; the next one is refused until it ends.
    await expect(statements.query(`SELECT 1`, [])).rejects.toMatchObject({ code: "25P02" });
    await pg.exec("ROLLBACK");
    expect((await statements.query(`SELECT 2`, [])).rows).toEqual([["2"]]);
  });
});
