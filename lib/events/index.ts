import { MemoryBus } from "./memory-bus";
import type { NotificationHub } from "./relay-bus";
import type { EventBus } from "./types";
import { processSlot } from "../process-slot";

export type { EventBus, PipelineStep, RunCountsSnapshot, RunEvent, RunProgress, RunState } from "./types";

export type { NotificationHub } from "./relay-bus";

/**
 * The bus for a database (its `events`): LISTEN/NOTIFY on a PostgreSQL server or on the embedded
 * database's owner socket (every process hears every other); the owner's relay when this process
 * owns embedded PGlite; one process's own when nothing else can reach it (tests).
 */
export async function openEventBus(source: { url?: string; hub?: NotificationHub } = {}): Promise<EventBus> {
  if (source.hub) {
    const { RelayBus } = await import("./relay-bus");
    return RelayBus.connect(source.hub);
  }
  if (!source.url) return new MemoryBus();
  const { PgBus } = await import("./pg-bus");
  return PgBus.connect(source.url);
}

// One bus per process, like the database: `colbench serve` opens it, route code finds it here.
const slot = processSlot<EventBus>("colbench.eventBus");

export function setEventBus(bus: EventBus): void {
  slot.set(bus);
}

export function getEventBus(): EventBus {
  return slot.need("no event bus in this process: start the studio with `npx colbench serve`");
}
