import { EventEmitter } from "node:events";
import pg from "pg";
import { CHANNEL } from "./channel";
import { fitted, type EventBus, type RunEvent } from "./types";

export { CHANNEL };
const MAX_PAYLOAD = 7900;
const MAX_QUEUED = 10_000;

/**
 * The bus over PostgreSQL LISTEN/NOTIFY: every process on one server (a studio, `colbench run` in a
 * terminal, workers on other machines) hears every other. One connection both listens and
 * notifies, so a process hears its own events in the order it sent them. A dropped connection is
 * made again; events published meanwhile wait in a bounded queue, and views reconcile from the
 * database whenever they (re)connect, so a lost event costs freshness, never data.
 */
export class PgBus implements EventBus {
  private readonly emitter = new EventEmitter<{ event: [RunEvent] }>();
  private client: pg.Client | null = null;
  private readonly queue: string[] = [];
  private closed = false;
  private connecting: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(private readonly url: string) {
    this.emitter.setMaxListeners(0);
  }

  static async connect(url: string): Promise<PgBus> {
    const bus = new PgBus(url);
    await bus.open();
    return bus;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      let event: RunEvent;
      try {
        event = JSON.parse(message.payload) as RunEvent;
      } catch {
        return;
      }
      this.emitter.emit("event", event);
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
    while (this.queue.length && this.client === client) this.send(client, this.queue.shift()!);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.closed) return;
    this.connecting ??= (async () => {
      for (let delay = 250; !this.closed && !this.client; delay = Math.min(delay * 2, 5000)) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (this.closed) break;
        await this.open().catch(() => {});
      }
      this.connecting = null;
    })();
  }

  /** The last NOTIFY sent: each waits for the one before, as one connection runs one query at a time. */
  private sending: Promise<unknown> = Promise.resolve();

  private send(client: pg.Client, payload: string): void {
    // Handing pg a query while the connection still runs another is what its "client is already
    // executing a query" DeprecationWarning was about: every publish went straight to the client.
    const sent = this.sending
      .then(() => client.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]))
      .catch(() => {
        // The connection broke under it: send it again once connected.
        if (!this.closed && this.queue.length < MAX_QUEUED) this.queue.push(payload);
      })
      .finally(() => this.inFlight.delete(sent));
    this.sending = sent;
    this.inFlight.add(sent);
  }

  publish(event: RunEvent): void {
    const payload = JSON.stringify(fitted(event));
    if (Buffer.byteLength(payload) > MAX_PAYLOAD)
      throw new Error(`event too large for NOTIFY (${Buffer.byteLength(payload)} bytes): ${payload.slice(0, 200)}`);
    if (this.client) this.send(this.client, payload);
    else if (this.queue.length < MAX_QUEUED) this.queue.push(payload);
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    this.emitter.removeAllListeners();
    // Notifications already handed to the connection go out before it ends.
    await Promise.all(this.inFlight);
    await client?.end().catch(() => {});
  }
}
