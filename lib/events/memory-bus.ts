import { EventEmitter } from "node:events";
import { fitted, type EventBus, type RunEvent } from "./types";

/** The bus of one process, heard by no other (tests, and code that runs without a database of its own). */
export class MemoryBus implements EventBus {
  private readonly emitter = new EventEmitter<{ event: [RunEvent] }>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(event: RunEvent): void {
    this.emitter.emit("event", fitted(event));
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
