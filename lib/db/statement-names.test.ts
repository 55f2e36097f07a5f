import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./open";
import { startPostgres, type PostgresServer } from "./testing/postgres-server";
import { STATEMENT_PREFIX, statementNames } from "./statement-names";

const query = (sql: string) => ({ sql, args: [], argTypes: [] });

describe("names for statements sent to a PostgreSQL server", () => {
  it("names a text from its second sighting on, the same name each time, one name per text", () => {
    const name = statementNames();
    expect(name(query("SELECT 1"))).toBe("");
    const first = name(query("SELECT 1"));
    expect(first.startsWith(STATEMENT_PREFIX)).toBe(true);
    expect(name(query("SELECT 1"))).toBe(first);
    name(query("SELECT 2"));
    const second = name(query("SELECT 2"));
    expect(second).not.toBe(first);
    expect(second.startsWith(STATEMENT_PREFIX)).toBe(true);
    // Another process names the same text alike (nothing in the name depends on the order seen).
    const other = statementNames();
    other(query("SELECT 2"));
    expect(other(query("SELECT 2"))).toBe(second);
  });

  it("names at most `limit` texts and forgets the texts seen once when too many wait", () => {
    const name = statementNames(2, 3);
    for (const sql of ["a", "a", "b", "b"]) name(query(sql));
    name(query("c"));
    expect(name(query("c"))).toBe("");
    expect(name(query("a"))).not.toBe("");
    const watching = statementNames(10, 3);
    for (const sql of ["x", "y", "z", "w"]) watching(query(sql));
    // "x" was forgotten when "w" came: its next sighting counts as the first again.
    expect(watching(query("x"))).toBe("");
    expect(watching(query("w"))).not.toBe("");
  });
});

describe("on a real PostgreSQL server", () => {
  let server: PostgresServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  async function prepared(env: string | undefined) {
    server ??= await startPostgres();
    const before = process.env.COLBENCH_PG_NAMED_STATEMENTS;
    if (env === undefined) delete process.env.COLBENCH_PG_NAMED_STATEMENTS;
    else process.env.COLBENCH_PG_NAMED_STATEMENTS = env;
    const db = await openDatabase({ url: await server.createDatabase(`names_${env ?? "on"}_${process.pid}`) });
    if (before === undefined) delete process.env.COLBENCH_PG_NAMED_STATEMENTS;
    else process.env.COLBENCH_PG_NAMED_STATEMENTS = before;
    try {
      // One transaction is one connection: the statements it prepared are the ones its session lists.
      return await db.prisma.$transaction(async (tx) => {
        const sums: number[] = [];
        for (const n of [1, 5, 41])
          sums.push((await tx.$queryRawUnsafe<Array<{ sum: number }>>(`SELECT $1::int + 1 AS "sum"`, n))[0]!.sum);
        const names = await tx.$queryRawUnsafe<Array<{ name: string; statement: string }>>(
          `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE '${STATEMENT_PREFIX}%'`,
        );
        return { sums, names };
      });
    } finally {
      await db.close();
    }
  }

  it("keeps a statement run twice prepared in the session, and its answers stay right", async () => {
    const { sums, names } = await prepared(undefined);
    expect(sums).toEqual([2, 6, 42]);
    expect(names.map((n) => n.statement)).toContain(`SELECT $1::int + 1 AS "sum"`);
  }, 120_000);

  it("prepares nothing with COLBENCH_PG_NAMED_STATEMENTS=off", async () => {
    const { sums, names } = await prepared("off");
    expect(sums).toEqual([2, 6, 42]);
    expect(names).toEqual([]);
  }, 120_000);
});
