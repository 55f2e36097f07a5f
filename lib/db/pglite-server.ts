import net from "node:net";
import { timingSafeEqual } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import type { SessionGate } from "./session-gate";
import {
  CANCEL_REQUEST,
  GSSENC_REQUEST,
  PROTOCOL_3,
  SSL_REQUEST,
  authenticationCleartext,
  errorAnswer,
  errorResponse,
  listenChanges,
  notification,
  parseNotification,
  passwordOf,
  prefixStatement,
  quoteIdent,
  readyStatus,
  simpleQuery,
  splitBackend,
  sqlOf,
  startupPacket,
  sync,
  takeMessages,
  textRowAnswer,
  type FrontendMessage,
} from "./wire";
import { SNAPSHOT_COLUMNS, SNAPSHOT_STATEMENT, type SnapshotCopy, type SnapshotMaker } from "./snapshot";

/**
 * Serves the owner's PGlite to other processes as a PostgreSQL server on 127.0.0.1, so CLI
 * commands, workers and tests reach the embedded database through the same pg driver they use
 * for a real server. Written on PGlite's public `execProtocolRawStream` rather than taken from
 * `@electric-sql/pglite-socket`, whose queue lets a second client's messages run between one
 * client's Parse and Sync and whose peer range pins another PGlite release (see ARCHITECTURE.md).
 *
 * PGlite is a single session, so the server keeps what PostgreSQL's separate sessions would:
 * - a client holds the session (the gate) from its first message until PGlite is idle again and
 *   the client has nothing unsent: a transaction, or a Parse..Sync, is never interleaved;
 * - prepared statement names are prefixed per client, and dropped when it leaves;
 * - NOTIFY is routed: PGlite hands a notification to the session that committed it, and the server
 *   passes it to every client (and the owner's own listeners) LISTENing on that channel;
 * - a client that leaves mid-transaction is rolled back; one idle in a transaction longer than
 *   `idleInTransactionMs` is disconnected, as PostgreSQL's idle_in_transaction_session_timeout does.
 * Session settings (SET, temporary tables, SQL-level PREPARE) are shared: clients must not rely on them.
 *
 * One statement is the server's own: `SELECT colbench_snapshot_folder()` (lib/db/snapshot.ts) copies
 * the folder while the client holds the gate and answers with the copy's path; the copy is removed
 * when that client's connection ends. A backup reads the copy, not the owner's session.
 */
export interface PgliteServerOptions {
  db: PGlite;
  gate: SessionGate;
  password: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  idleInTransactionMs?: number;
  /** Copies of the folder for backups; absent (an in-memory database): the statement is refused. */
  snapshots?: SnapshotMaker;
}

type OwnerListener = (payload: string) => void;

let nextClientId = 1;

class Client {
  readonly id = nextClientId++;
  readonly prefix = `c${this.id}_`;
  private buffer: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private started = false;
  private authed = false;
  private readonly queue: Buffer[] = [];
  private release: (() => void) | null = null;
  private pumping = false;
  private closed = false;
  /** A Parse/Bind/Execute was sent and its Sync not yet: the session stays ours. */
  private unsynced = false;
  private status: "I" | "T" | "E" = "I";
  private idleTimer: NodeJS.Timeout | null = null;
  readonly statements = new Set<string>();
  readonly channels = new Set<string>();
  /** Copies of the folder taken for this client, removed when it leaves. */
  readonly snapshots: string[] = [];

  constructor(
    private readonly server: PgliteServer,
    readonly socket: net.Socket,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let taken;
    try {
      taken = takeMessages(this.buffer, this.started);
    } catch (error) {
      return this.fail("08P01", (error as Error).message);
    }
    this.buffer = taken.rest;
    this.started = taken.started;
    for (const message of taken.messages) this.handle(message);
    void this.pump();
  }

  private handle(message: FrontendMessage): void {
    if (message.kind === "startup") {
      if (message.code === SSL_REQUEST || message.code === GSSENC_REQUEST) return void this.socket.write("N");
      // PGlite has no backend to signal; a cancel is a connection of its own, closed at once.
      if (message.code === CANCEL_REQUEST) return void this.socket.end();
      if (message.code !== PROTOCOL_3) return this.fail("08P01", `unsupported protocol ${message.code}`);
      this.socket.write(authenticationCleartext());
      return;
    }
    if (!this.authed) {
      if (message.type !== "p") return this.fail("08P01", "expected a password message");
      if (!this.server.checkPassword(passwordOf(message.bytes)))
        return this.fail("28P01", "password authentication failed for the PGlite socket");
      this.authed = true;
      // PGlite answers a startup packet with AuthenticationOk, its parameters and ReadyForQuery.
      this.queue.push(startupPacket());
      return;
    }
    this.queue.push(message.bytes);
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.closed) {
        this.clearIdle();
        if (!this.release) {
          const release = await this.server.gate.acquire();
          if (this.closed) {
            release();
            return;
          }
          this.release = release;
        }
        const batch = this.queue.splice(0);
        const terminate = batch.findIndex((m) => m[0] === 0x58 /* X */);
        if (terminate >= 0) batch.length = terminate;
        if (batch.length) await this.execute(batch);
        if (terminate >= 0) {
          this.socket.end();
          return this.close();
        }
      }
      if (this.release && !this.unsynced && this.status === "I") {
        await this.server.relistenIfNeeded();
        this.release();
        this.release = null;
      } else if (this.release) {
        this.startIdle();
      }
    } catch (error) {
      this.fail("XX000", `PGlite socket: ${(error as Error).message}`);
    } finally {
      this.pumping = false;
    }
    if (this.queue.length && !this.closed) void this.pump();
  }

  private async execute(batch: Buffer[]): Promise<void> {
    if (batch.length === 1 && this.status === "I" && isSnapshotRequest(batch[0]!)) return this.snapshot();
    if (batch.some(isCopyFromClient)) {
      // PGlite cannot take a COPY's data across calls: it ends its WebAssembly program (everyone's
      // database) at the first CopyData. Refused before it reaches PGlite.
      const text = "COPY … FROM STDIN is not supported by the embedded database: use INSERT";
      if (this.socket.writable) this.socket.write(errorAnswer("0A000", text, this.status));
      return;
    }
    const input: Buffer[] = [];
    for (const raw of batch) {
      if (raw[0] === 0x00) {
        input.push(raw); // our own startup packet
        continue;
      }
      const type = String.fromCharCode(raw[0]!);
      const { bytes, name, closed } = prefixStatement(raw, this.prefix);
      if (name) this.statements.add(name);
      if (closed) this.statements.delete(closed);
      const sql = sqlOf(raw);
      if (sql && /listen/i.test(sql)) {
        for (const change of listenChanges(sql)) {
          if (change.channel === "*") {
            if (!change.listen) this.channels.clear();
          } else if (change.listen) this.channels.add(change.channel);
          else this.channels.delete(change.channel);
        }
        this.server.listensChanged();
      }
      if ("PBDECH".includes(type)) this.unsynced = true;
      if (type === "S" || type === "Q") this.unsynced = false;
      input.push(bytes);
    }
    const output = await this.server.exec(input.length === 1 ? input[0]! : Buffer.concat(input));
    const kept: Buffer[] = [];
    for (const message of splitBackend(output)) {
      if (message.type === "Z") this.status = readyStatus(message.bytes);
      if (message.type === "A") {
        const { channel, payload } = parseNotification(message.bytes);
        this.server.route(channel, payload, this);
        if (!this.channels.has(channel)) continue;
      }
      kept.push(message.bytes);
    }
    if (kept.length && this.socket.writable) this.socket.write(kept.length === 1 ? kept[0]! : Buffer.concat(kept));
  }

  /**
   * Answers the snapshot statement: the folder is copied while others go on (the gate let go), then
   * brought up to date behind the gate (lib/db/snapshot.ts), the only moment anyone waits for it.
   */
  private async snapshot(): Promise<void> {
    const maker = this.server.snapshots;
    const answer = (bytes: Buffer) => void (this.socket.writable && this.socket.write(bytes));
    if (!maker)
      return answer(
        errorAnswer("0A000", "the embedded database is in memory: there is no folder to copy for a backup"),
      );
    let copy: SnapshotCopy | undefined;
    try {
      this.release?.();
      this.release = null;
      copy = await maker.start();
      this.release = await this.server.gate.acquire();
      if (this.closed) {
        this.release();
        this.release = null;
        return void (await copy.discard());
      }
      const { takenAt } = copy.finish();
      this.snapshots.push(copy.folder);
      answer(textRowAnswer([...SNAPSHOT_COLUMNS], [copy.folder, takenAt]));
    } catch (error) {
      await copy?.discard().catch(() => {});
      this.release ??= await this.server.gate.acquire();
      answer(errorAnswer("58030", `could not copy the database folder for a backup: ${(error as Error).message}`));
    }
  }

  private startIdle(): void {
    this.clearIdle();
    const ms = this.server.idleInTransactionMs;
    this.idleTimer = setTimeout(
      () =>
        this.fail(
          "25P03",
          `terminating connection: idle in a transaction for ${ms / 1000} s while other clients of the embedded database waited`,
        ),
      ms,
    );
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  deliver(message: Buffer): void {
    if (!this.closed && this.authed && this.socket.writable) this.socket.write(message);
  }

  private fail(code: string, text: string): void {
    if (this.socket.writable) this.socket.end(errorResponse(code, text));
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearIdle();
    this.queue.length = 0;
    this.socket.destroy();
    for (const folder of this.snapshots.splice(0)) void this.server.snapshots?.drop(folder).catch(() => {});
    void this.server.forget(this, this.release, this.unsynced);
    this.release = null;
  }
}

export class PgliteServer {
  readonly gate: SessionGate;
  readonly idleInTransactionMs: number;
  private readonly db: PGlite;
  private readonly password: Buffer;
  private readonly clients = new Set<Client>();
  private readonly ownerListeners = new Map<string, Set<OwnerListener>>();
  private listensDirty = false;
  private server: net.Server | null = null;
  private port = 0;
  private readonly host: string;

  constructor(private readonly options: PgliteServerOptions) {
    this.db = options.db;
    this.gate = options.gate;
    this.password = Buffer.from(options.password);
    this.host = options.host ?? "127.0.0.1";
    this.idleInTransactionMs = options.idleInTransactionMs ?? 60_000;
  }

  /** Listens; rejects with EADDRINUSE when the asked-for port is taken. */
  async start(): Promise<void> {
    const server = net.createServer((socket) => {
      const client = new Client(this, socket);
      this.clients.add(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.options.port ?? 0, this.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  get snapshots(): SnapshotMaker | undefined {
    return this.options.snapshots;
  }

  get address(): { host: string; port: number } {
    return { host: this.host, port: this.port };
  }

  /** How many client connections are open now. */
  get connections(): number {
    return this.clients.size;
  }

  checkPassword(given: string): boolean {
    const bytes = Buffer.from(given);
    return bytes.length === this.password.length && timingSafeEqual(bytes, this.password);
  }

  /** Runs wire messages on PGlite; the caller holds the gate. */
  async exec(input: Buffer): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    await this.db.execProtocolRawStream(input, { onRawData: (data) => chunks.push(data.slice()) });
    return Buffer.concat(chunks);
  }

  /** A notification PGlite handed to one client's session, passed to everyone listening. */
  route(channel: string, payload: string, from: Client | null): void {
    const message = notification(process.pid, channel, payload);
    for (const client of this.clients) if (client !== from && client.channels.has(channel)) client.deliver(message);
    for (const listener of this.ownerListeners.get(channel) ?? []) listener(payload);
  }

  /** The owner's own NOTIFY: to every listening client, and to its own listeners. */
  notify(channel: string, payload: string): void {
    this.route(channel, payload, null);
  }

  /** The owner hears every client's NOTIFY on the channel (the session LISTENs for it). */
  async listen(channel: string, listener: OwnerListener): Promise<() => void> {
    const set = this.ownerListeners.get(channel) ?? new Set();
    set.add(listener);
    this.ownerListeners.set(channel, set);
    this.listensDirty = true;
    await this.gate.run(() => this.relistenIfNeeded());
    return () => {
      set.delete(listener);
    };
  }

  listensChanged(): void {
    this.listensDirty = true;
  }

  /**
   * The session must LISTEN on every channel anyone wants (one client's UNLISTEN stops it for
   * the whole session). Run by whoever holds the gate, outside a transaction.
   */
  async relistenIfNeeded(): Promise<void> {
    if (!this.listensDirty) return;
    this.listensDirty = false;
    const wanted = new Set<string>();
    for (const client of this.clients) for (const channel of client.channels) wanted.add(channel);
    for (const [channel, listeners] of this.ownerListeners) if (listeners.size) wanted.add(channel);
    if (!wanted.size) return;
    // LISTEN is idempotent: listening again on a channel the session already has costs nothing.
    await this.exec(simpleQuery([...wanted].map((channel) => `LISTEN ${quoteIdent(channel)}`).join("; ")));
  }

  /** A client left: finish what it left open in the session, then forget it. */
  async forget(client: Client, holding: (() => void) | null, unsynced: boolean): Promise<void> {
    this.clients.delete(client);
    if (client.channels.size) this.listensDirty = true;
    if (!holding && !client.statements.size) return;
    const release = holding ?? (await this.gate.acquire());
    try {
      if (this.db.closed) return;
      if (unsynced) await this.exec(sync());
      if (this.db.isInTransaction()) await this.exec(simpleQuery("ROLLBACK"));
      if (client.statements.size) {
        await this.exec(
          simpleQuery(
            [...client.statements].map((name) => `DEALLOCATE ${quoteIdent(client.prefix + name)}`).join("; "),
          ),
        );
      }
    } catch {
      // The database is closing under us; there is nothing left to clean.
    } finally {
      release();
    }
  }

  /** Stops listening and disconnects every client (their open transactions roll back). */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const client of [...this.clients]) client.close();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    // Wait for the clean-ups the disconnections queued on the gate.
    await this.gate.run(async () => {});
  }
}

function isSnapshotRequest(raw: Buffer): boolean {
  if (raw[0] !== 0x51 /* Q */) return false;
  return sqlOf(raw)?.trim().replace(/;$/, "").trim().toLowerCase() === SNAPSHOT_STATEMENT.toLowerCase();
}

/** A simple query that starts a COPY … FROM STDIN. */
function isCopyFromClient(raw: Buffer): boolean {
  if (raw[0] !== 0x51 /* Q */) return false;
  const sql = sqlOf(raw);
  return !!sql && /^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i.test(sql);
}
