import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../testing/postgres-server";
import { copyToLines, toCopyLine } from "./copy-text";

// The COPY text format both ways: every character a column can hold arrives as the column's text
// form, through PostgreSQL itself, and a character cut between two chunks of the stream arrives whole.

const nasty = [
  "plain",
  "tab\there",
  "new\nline and carriage\rreturn",
  "back\\slash \\N \\t literal",
  "\\N",
  "",
  Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join(""),
  "ünïcode ✓ 𝄞 emoji 🎉",
  '{"json": "with \\"quotes\\" and \\\\n"}',
];

let server: PostgresServer | undefined;
afterAll(async () => {
  await server?.stop();
});

describe("COPY text lines", () => {
  it("reads rows split anywhere, even inside a character", async () => {
    const text = toCopyLine(["1", "𝄞 ü", null]) + toCopyLine(["2", "a\tb\nc\\d", ""]);
    const bytes = Buffer.from(text, "utf8");
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)); // one byte at a time
    const pieces: string[] = [];
    const count = await copyToLines(Readable.from(chunks), async (piece) => void pieces.push(piece), 1);
    expect(count).toBe(2);
    expect(
      pieces
        .join("")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      ["1", "𝄞 ü", null],
      ["2", "a\tb\nc\\d", ""],
    ]);
  });

  it("round-trips every character through PostgreSQL's COPY, out and back in", async () => {
    server ??= await startPostgres();
    const client = new pg.Client({ connectionString: await server.createDatabase("copy_text") });
    await client.connect();
    try {
      await client.query("CREATE TABLE t (id int, v text, n text)");
      for (const [i, value] of nasty.entries()) await client.query("INSERT INTO t VALUES ($1, $2, NULL)", [i, value]);
      const pieces: string[] = [];
      await copyToLines(
        client.query(copyTo("COPY (SELECT id::text, v, n FROM t ORDER BY id) TO STDOUT")),
        async (p) => {
          pieces.push(p);
        },
      );
      const rows = pieces
        .join("")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Array<string | null>);
      expect(rows).toEqual(nasty.map((value, i) => [String(i), value, null]));

      await client.query("CREATE TABLE back (id int, v text, n text)");
      const stream = client.query(copyFrom("COPY back FROM STDIN"));
      stream.end(rows.map(toCopyLine).join(""));
      await finished(stream);
      const got = await client.query("SELECT id, v, n FROM back ORDER BY id");
      expect(got.rows).toEqual(nasty.map((v, id) => ({ id, v, n: null })));
    } finally {
      await client.end();
    }
  });
});
