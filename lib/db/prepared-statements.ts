import { parse as results, protocol, type messages as wire, type PGlite } from "@electric-sql/pglite";
import type { RawResult } from "./worker-protocol";

// PGlite's own `query` parses and plans its statement every time, in six trips into the
// WebAssembly (Parse, Describe, Bind, Describe, Execute, Sync); for the studio's commonest
// statements, such as the labelling desk's one-statement label-and-next, planning alone cost as
// much as running it. The owner's queries instead become named prepared statements, parsed once
// (PostgreSQL then keeps a generic plan once it is no worse than re-planning) and run in one trip.
// Only the database's thread uses this, inside its session gate or the owner's open transaction.

const { serialize } = protocol;
/** The owner's statements' names, apart from the socket clients' (the wire server renames theirs with a client prefix). */
const PREFIX = "colbench_owner_";
/** SQL texts kept prepared; the least recently used beyond this is closed (raw SQL with inlined values can be endless). */
const KEEP = 256;
/** The statement was dropped under us (DEALLOCATE ALL, DISCARD ALL) or its result's shape changed (a migration). */
const STALE = new Set(["26000", "0A000"]);

interface Statement {
  name: string;
  paramTypes: number[];
}

type Message = wire.BackendMessage;
/** PGlite's parser makes every "error" message a DatabaseError: an Error, with PostgreSQL's code. */
const isError = (m: Message): m is wire.DatabaseError => m.name === "error";

/** Parsers that answer the text PostgreSQL sent: the owner's thread parses it with the caller's own. */
export function textParsers(pg: PGlite): Record<number, (text: string) => string> {
  return Object.fromEntries(Object.keys(pg.parsers).map((key) => [key, (text: string) => text]));
}

export class PreparedStatements {
  private readonly statements = new Map<string, Statement>();
  private next = 1;
  private readonly raw: Record<number, (text: string) => string>;

  constructor(
    private readonly pg: PGlite,
    private readonly keep = KEEP,
  ) {
    this.raw = textParsers(pg);
  }

  async query(sql: string, params: unknown[]): Promise<RawResult> {
    const inTransaction = this.pg.isInTransaction();
    for (let attempt = 0; ; attempt++) {
      const statement = this.statements.get(sql) ?? (await this.prepare(sql));
      // Kept in use order: a hit moves to the back, the front is the least recently used.
      this.statements.delete(sql);
      this.statements.set(sql, statement);
      const out = await this.run(statement, params, inTransaction);
      if (!("error" in out)) return out;
      // Out of a transaction, a statement gone stale is prepared again once; in one, the
      // error has aborted it already and goes to the caller like any other.
      if (STALE.has(out.error.code ?? "") && !inTransaction && attempt === 0) {
        await this.forget(sql);
        continue;
      }
      throw out.error;
    }
  }

  private async prepare(sql: string): Promise<Statement> {
    if (this.statements.size >= this.keep) await this.forget(this.statements.keys().next().value!);
    const name = `${PREFIX}${this.next++}`;
    const messages = await this.send([
      serialize.parse({ name, text: sql }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    ]);
    const failed = messages.find(isError);
    if (failed) throw failed;
    const description = messages.find((m): m is wire.ParameterDescriptionMessage => m.name === "parameterDescription");
    const statement = { name, paramTypes: description?.dataTypeIDs ?? [] };
    this.statements.set(sql, statement);
    return statement;
  }

  private async run(
    statement: Statement,
    params: unknown[],
    inTransaction: boolean,
  ): Promise<RawResult | { error: wire.DatabaseError }> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[statement.paramTypes[i] ?? 0];
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- as PGlite's own query does (`toString()`) for a type it has no serializer for
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.send(
      [
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ],
      !inTransaction,
    );
    const failed = messages.find(isError);
    if (failed) return { error: failed };
    const [result] = results.parseResults(messages, this.raw, { rowMode: "array" });
    return {
      rows: (result?.rows ?? []) as RawResult["rows"],
      fields: (result?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      affectedRows: result?.affectedRows,
    };
  }

  private async forget(sql: string): Promise<void> {
    const statement = this.statements.get(sql);
    if (!statement) return;
    this.statements.delete(sql);
    await this.send([serialize.close({ type: "S", name: statement.name }), serialize.sync()]);
  }

  private async send(parts: Uint8Array[], syncToFs = true): Promise<Message[]> {
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    const { messages } = await this.pg.execProtocol(bytes, { throwOnError: false, syncToFs });
    return messages;
  }
}
