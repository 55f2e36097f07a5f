import { EventEmitter } from "node:events";
import { CHANNEL } from "./channel";
import { fitted, type EventBus, type RunEvent } from "./types";

/** What the owner of embedded PGlite offers: NOTIFY passed between it and its socket's clients. */
export interface NotificationHub {
  notify(channel: string, payload: string): void;
  listen(channel: string, listener: (payload: string) => void): Promise<() => void>;
}

/**
 * The bus of the process that owns embedded PGlite. Its clients (`colbench run` in a terminal, a
 * second studio) use the PostgreSQL bus over the owner's socket; the socket server hands their
 * NOTIFYs here and this bus's events to every client LISTENing, so every process hears every other.
 */
export class RelayBus implements EventBus {
  private readonly emitter = new EventEmitter<{ event: [RunEvent] }>();
  private off: (() => void) | null = null;

  private constructor(private readonly hub: NotificationHub) {
    this.emitter.setMaxListeners(0);
  }

  static async connect(hub: NotificationHub): Promise<RelayBus> {
    const bus = new RelayBus(hub);
    bus.off = await hub.listen(CHANNEL, (payload) => {
      let event: RunEvent;
      try {
        event = JSON.parse(payload) as RunEvent;
      } catch {
        return;
      }
      bus.emitter.emit("event", event);
    });
    return bus;
  }

  publish(event: RunEvent): void {
    // Through the hub, which also hands it back to this bus's own subscribers.
    this.hub.notify(CHANNEL, JSON.stringify(fitted(event)));
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.off?.();
    this.off = null;
    this.emitter.removeAllListeners();
  }
}
