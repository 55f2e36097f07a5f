import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@electric-sql/pglite";
import pg from "pg";
import PgBoss from "pg-boss";
import { serialize } from "pg-protocol";
import { from as copyFrom } from "pg-copy-streams";
import { PgliteHost } from "./pglite-host";

// PGlite is one PostgreSQL session shared by every client of the socket. What separate sessions of
// a real server guarantee must hold here too: no client's statements inside another's transaction
// or between another's Parse and Sync, notifications to whoever LISTENs, nothing left behind by a
// client that leaves. The database runs as the owner runs it: PGlite, the server and its gate in
// their own thread (PgliteHost), the owner's own queries sent to that thread.

let server: PgliteHost;
let url: string;
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await PgliteHost.start({ password: "secret", idleInTransactionMs: 1500, statistics: false });
  await server.pglite.exec("CREATE TABLE t (id serial PRIMARY KEY, v text)");
  url = `postgresql://colbench:secret@127.0.0.1:${server.address.port}/postgres`;
});

afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {});
  await server.close();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client(url);
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** A client speaking the wire protocol byte by byte, to send one query in two pieces. */
async function rawClient(): Promise<{
  socket: net.Socket;
  write(...messages: Buffer[]): void;
  read(): Promise<string>;
}> {
  const socket = net.connect(server.address.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let received = Buffer.alloc(0);
  socket.on("data", (chunk) => (received = Buffer.concat([received, chunk])));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
  socket.write(serialize.startup({ user: "colbench", database: "postgres" }));
  await settle();
  socket.write(serialize.password("secret"));
  await settle();
  received = Buffer.alloc(0);
  return {
    socket,
    write: (...messages) => socket.write(Buffer.concat(messages)),
    read: async () => {
      await settle();
      const text = received.toString("latin1");
      received = Buffer.alloc(0);
      return text;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the PGlite socket server", () => {
  it("answers the pg driver as a PostgreSQL server would, and refuses a wrong password", async () => {
    const client = await connect();
    expect((await client.query("SELECT $1::int + 1 AS x", [41])).rows).toEqual([{ x: 42 }]);
    const wrong = new pg.Client(url.replace("secret", "guess"));
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
  });

  it("never runs a second client's query between one client's Parse and its Sync (a query split across two writes)", async () => {
    const a = await rawClient();
    const b = await rawClient();
    a.write(serialize.parse({ text: "SELECT $1::text AS from_a" }));
    await sleep(150);
    // B's whole query arrives while A's Bind is still on its way: it must wait, not take the unnamed statement.
    b.write(
      serialize.parse({ text: "SELECT 42 AS from_b" }),
      serialize.bind({}),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    );
    expect(await b.read()).toBe("");
    a.write(
      serialize.bind({ values: ["hello"] }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    );
    const fromA = await a.read();
    expect(fromA).toContain("hello");
    expect(fromA).not.toContain("ERROR");
    expect(await b.read()).toContain("from_b");
    a.socket.destroy();
    b.socket.destroy();
  });

  it("keeps other clients, and the owner's own queries, out of a client's open transaction", async () => {
    const a = await connect();
    const b = await connect();
    const owner = server.pglite;
    await a.query("BEGIN");
    await a.query("INSERT INTO t (v) VALUES ('uncommitted')");
    const seenByB = b
      .query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'uncommitted'")
      .then((r) => r.rows[0]!.n);
    const seenByOwner = owner
      .query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'uncommitted'")
      .then((r) => r.rows[0]!.n);
    await sleep(200);
    await a.query("ROLLBACK");
    expect(await seenByB).toBe(0);
    expect(await seenByOwner).toBe(0);
  });

  it("runs the owner's own transactions in the database's thread: clients wait for one, it commits on return and rolls back on a throw", async () => {
    const a = await connect();
    let seen: Promise<number> | undefined;
    await server.pglite.transaction(async (tx) => {
      await tx.query("INSERT INTO t (v) VALUES ('owner tx')");
      seen = a.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'owner tx'").then((r) => r.rows[0]!.n);
      await sleep(150);
      expect(await server.connections()).toBeGreaterThan(0);
    });
    expect(await seen).toBe(1);
    const failing = server.pglite.transaction(async (tx) => {
      await tx.query("INSERT INTO t (v) VALUES ('owner rolled back')");
      throw new Error("changed my mind");
    });
    await expect(failing).rejects.toThrow("changed my mind");
    expect(
      (await a.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'owner rolled back'")).rows[0]!.n,
    ).toBe(0);
    // PostgreSQL's errors reach the owner's thread as PGlite's own, with their fields.
    await server.pglite.exec("CREATE TABLE u (id int PRIMARY KEY); INSERT INTO u VALUES (1)");
    const duplicate = await server.pglite.query("INSERT INTO u VALUES (1)").catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(messages.DatabaseError);
    expect(duplicate).toMatchObject({ code: "23505", constraint: "u_pkey" });
    expect(
      (await server.pglite.query<{ n: number; at: Date }>("SELECT 2::int AS n, now() AS at")).rows[0],
    ).toMatchObject({ n: 2, at: expect.any(Date) as unknown });
  });

  it("passes a NOTIFY to every client and owner listener on the channel, whoever sent it, across one client's UNLISTEN", async () => {
    const a = await connect();
    const b = await connect();
    const heard: string[] = [];
    a.on("notification", (m) => heard.push(`a:${m.payload}`));
    b.on("notification", (m) => heard.push(`b:${m.payload}`));
    const off = await server.listen("news", (payload) => heard.push(`owner:${payload}`));
    await a.query("LISTEN news");
    await b.query("SELECT pg_notify('news', 'from b')");
    await server.notify("news", "from the owner");
    await b.query("LISTEN news");
    await a.query("UNLISTEN news");
    await a.query("SELECT pg_notify('news', 'from a')");
    // A notification sent inside a transaction goes out when it commits, and not at all on rollback.
    await a.query("BEGIN");
    await a.query("SELECT pg_notify('news', 'rolled back')");
    await a.query("ROLLBACK");
    await sleep(100);
    off();
    expect(heard.sort()).toEqual([
      "a:from b",
      "a:from the owner",
      "b:from a",
      "owner:from a",
      "owner:from b",
      "owner:from the owner",
    ]);
  });

  it("rolls back what a client leaves open when it disconnects, and drops its prepared statements", async () => {
    const a = await connect();
    const c = new pg.Client(url);
    c.on("error", () => {});
    await c.connect();
    await c.query({ name: "mine", text: "SELECT 1 AS one" });
    await c.query("BEGIN");
    await c.query("INSERT INTO t (v) VALUES ('left open')");
    await c.end();
    expect((await a.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'left open'")).rows[0]!.n).toBe(0);
    // The client's own is gone; the owner's (lib/db/prepared-statements.ts) are not the client's to drop.
    expect(
      (
        await a.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name NOT LIKE 'colbench_owner_%'",
        )
      ).rows[0]!.n,
    ).toBe(0);
    expect(await server.inTransaction()).toBe(false);
  });

  it("keeps two clients' prepared statements of the same name apart", async () => {
    const a = await connect();
    const b = await connect();
    await a.query({ name: "s1", text: "SELECT 'a' AS who" });
    await b.query({ name: "s1", text: "SELECT 'b' AS who" });
    expect((await a.query({ name: "s1", text: "SELECT 'a' AS who" })).rows).toEqual([{ who: "a" }]);
    expect((await b.query({ name: "s1", text: "SELECT 'b' AS who" })).rows).toEqual([{ who: "b" }]);
  });

  it("disconnects a client idle in a transaction too long, so the others go on", async () => {
    const idle = await connect();
    const other = await connect();
    await idle.query("BEGIN");
    await idle.query("INSERT INTO t (v) VALUES ('idle')");
    const started = Date.now();
    const count = await other.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE v = 'idle'");
    expect(count.rows[0]!.n).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await expect(idle.query("SELECT 1")).rejects.toThrow();
  });

  it("is a PostgreSQL server to other libraries: pg-boss creates its schema and works 20 jobs through it", async () => {
    const boss = new PgBoss({ connectionString: url, max: 4 });
    const errors: string[] = [];
    boss.on("error", (error) => errors.push(error.message));
    await boss.start();
    try {
      await boss.createQueue("jobs");
      const worked: number[] = [];
      await boss.work<{ i: number }>("jobs", { batchSize: 5, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) worked.push(job.data.i);
      });
      for (let i = 0; i < 20; i++) await boss.send("jobs", { i });
      await expect.poll(() => worked.length, { timeout: 30_000 }).toBe(20);
      expect(worked.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(errors).toEqual([]);
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
  });

  it("serves many clients at once without mixing their answers", async () => {
    const many = await Promise.all(Array.from({ length: 6 }, () => connect()));
    let wrong = 0;
    await Promise.all(
      many.map(async (client, k) => {
        for (let i = 0; i < 40; i++) {
          const text = "x".repeat(50_000 * (k % 3)) + String(i);
          const r = await client.query<{ n: number; k: number }>(
            "INSERT INTO t (v) VALUES ($1) RETURNING length(v) AS n, $2::int AS k",
            [text, k],
          );
          if (r.rows[0]!.n !== text.length || r.rows[0]!.k !== k) wrong++;
        }
      }),
    );
    expect(wrong).toBe(0);
  });

  it("refuses COPY … FROM STDIN with an error instead of ending PGlite, and goes on serving", async () => {
    const client = await connect();
    const stream = client.query(copyFrom("COPY t (v) FROM STDIN"));
    const refused = new Promise<Error>((resolve) => stream.on("error", resolve));
    stream.end("a\n");
    expect((await refused).message).toMatch(/COPY … FROM STDIN is not supported by the embedded database/);
    expect((await client.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    expect((await (await connect()).query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});
