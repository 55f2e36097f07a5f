import { Worker } from "node:worker_threads";
import { messages, types, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import type { ArrayType, HostInit, RawResult, Request, ToHost, WireError } from "./worker-protocol";

/**
 * The embedded database as the owner's thread holds it: PGlite, its socket server and its session
 * gate run in a worker thread (lib/db/pglite-worker.ts), so no query, no ANALYZE and no socket
 * client's bytes hold this thread's event loop. `pglite` is what the owner's Prisma adapter talks
 * to (query, exec, transaction: the SQL goes over, the rows come back as text and are parsed
 * here with the caller's parsers); `notify`/`listen` are the NOTIFY relay the owner's event bus uses.
 */
export class PgliteHost {
  readonly pglite: PGlite;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private dead: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly address: { host: string; port: number },
    arrays: ArrayType[],
  ) {
    this.pglite = new WorkerPglite(this, arrays) as unknown as PGlite;
    worker.on("message", (message: ToHost) => this.receive(message));
    worker.on("error", (error) => this.die(error));
    worker.on("exit", (code) => this.die(new Error(`the embedded database's thread ended (exit code ${code})`)));
  }

  /** Opens the folder (or an in-memory database) in a new thread and serves it; rejects with the thread's error (EADDRINUSE with `strictPort`). */
  static async start(init: HostInit): Promise<PgliteHost> {
    const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), { workerData: init });
    let onMessage!: (message: ToHost) => void;
    let onError!: (error: Error) => void;
    let onExit!: (code: number) => void;
    try {
      const ready = await new Promise<Extract<ToHost, { kind: "ready" }>>((resolve, reject) => {
        onMessage = (message) => {
          if (message.kind === "ready") resolve(message);
          else if (message.kind === "failed") reject(errorOf(message.error));
        };
        onError = reject;
        onExit = (code) => reject(new Error(`the embedded database's thread ended while opening (exit code ${code})`));
        worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      });
      // Only these: the Worker keeps listeners of its own (removeAllListeners stops its messages).
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      return new PgliteHost(worker, { host: init.host ?? "127.0.0.1", port: ready.port }, ready.arrays);
    } catch (error) {
      await worker.terminate();
      throw error;
    }
  }

  call<T>(request: Request): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }

  private receive(message: ToHost): void {
    if (message.kind === "notification") {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
      return;
    }
    if (message.kind !== "reply" && message.kind !== "error") return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.kind === "reply") waiting.resolve(message.value);
    else waiting.reject(errorOf(message.error));
  }

  private die(error: Error): void {
    if (this.dead) return;
    this.dead = error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  /** The owner's NOTIFY: to every listening socket client and to this thread's own listeners (resolves once sent). */
  notify(channel: string, payload: string): Promise<void> {
    return this.call<void>({ op: "notify", channel, payload }).catch(() => {});
  }

  /** Hears every NOTIFY on the channel, whoever sent it (the session LISTENs for it). */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: "listen", channel });
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Whether PGlite's one session is inside a transaction block now (waits its turn at the gate). */
  inTransaction(): Promise<boolean> {
    return this.call({ op: "inTransaction" });
  }

  /** How many socket clients are connected now. */
  connections(): Promise<number> {
    return this.call({ op: "connections" });
  }

  /** Disconnects the socket's clients (their open transactions roll back), closes PGlite cleanly and ends the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.dead) await this.call({ op: "close" });
      } finally {
        this.die(new Error("the embedded database is closed"));
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }
}

function errorOf(wire: WireError): Error {
  if (wire.database) {
    // The Prisma adapter recognises PostgreSQL's errors by this class (constraint names, codes).
    const error = new messages.DatabaseError(wire.message, Number(wire.database.length ?? 0), "error");
    Object.assign(error, wire.database);
    return error;
  }
  const error = new Error(wire.message) as Error & { code?: string };
  error.name = wire.name;
  if (wire.code) error.code = wire.code;
  return error;
}

type Parsers = NonNullable<QueryOptions["parsers"]>;

function parsed<T>(result: RawResult, parsers: Parsers, rowMode: QueryOptions["rowMode"]): Results<T> {
  const { fields } = result;
  const rows =
    rowMode === "array"
      ? result.rows.map((row) => row.map((text, i): unknown => types.parseType(text, fields[i]!.dataTypeID, parsers)))
      : result.rows.map((row) =>
          Object.fromEntries(
            row.map((text, i) => [fields[i]!.name, types.parseType(text, fields[i]!.dataTypeID, parsers)]),
          ),
        );
  return { rows: rows as T[], fields, affectedRows: result.affectedRows };
}

interface Queryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Array<Results>>;
}

/** PGlite's query / exec / transaction, run by the database's thread. */
class WorkerPglite implements Queryable {
  /** What PGlite's own parsers are: the defaults and one per array type, parsing its elements. */
  private readonly parsers: Parsers;
  /** Those with a caller's own on top, made once per set the caller passes (the Prisma adapter passes one). */
  private readonly merged = new WeakMap<Parsers, Parsers>();

  constructor(
    private readonly host: PgliteHost,
    arrays: ArrayType[],
  ) {
    const parsers: Parsers = { ...types.parsers };
    for (const { oid, typarray } of arrays)
      parsers[typarray] = (text: string): unknown => types.arrayParser(text, parsers[oid]!, typarray);
    this.parsers = parsers;
  }

  private parsersFor(options?: QueryOptions): Parsers {
    const own = options?.parsers;
    if (!own) return this.parsers;
    let merged = this.merged.get(own);
    if (!merged) this.merged.set(own, (merged = { ...this.parsers, ...own }));
    return merged;
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return parsed<T>(
      await this.host.call<RawResult>({ op: "query", sql, params, tx }),
      this.parsersFor(options),
      options?.rowMode,
    );
  }

  async exec(sql: string, options?: QueryOptions, tx?: number): Promise<Array<Results>> {
    const parsers = this.parsersFor(options);
    return (await this.host.call<RawResult[]>({ op: "exec", sql, tx })).map((result) =>
      parsed(result, parsers, options?.rowMode),
    );
  }

  /** Commits when `use` returns, rolls back when it throws or calls `rollback()`, as PGlite's own does. */
  async transaction<T>(
    use: (tx: Queryable & { rollback(): Promise<void>; readonly closed: boolean }) => Promise<T>,
  ): Promise<T> {
    const id = await this.host.call<number>({ op: "begin" });
    let closed = false;
    // Typed with `as`: it is set inside `rollback`, so TypeScript must not narrow it to null here.
    let rolledBack = null as Promise<void> | null;
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => this.query<R>(sql, params, options, id),
      exec: (sql: string, options?: QueryOptions) => this.exec(sql, options, id),
      rollback: () => {
        // Marked at once: a caller may end its callback without awaiting this.
        closed = true;
        rolledBack ??= this.host.call<void>({ op: "rollback", tx: id });
        return rolledBack;
      },
      get closed() {
        return closed;
      },
    };
    try {
      const result = await use(tx);
      if (rolledBack) await rolledBack;
      else {
        closed = true;
        await this.host.call({ op: "commit", tx: id });
      }
      return result;
    } catch (error) {
      if (rolledBack) await rolledBack.catch(() => {});
      else await tx.rollback().catch(() => {});
      throw error;
    }
  }
}
