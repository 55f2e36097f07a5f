import { MemoryBus } from "./memory-bus";
import type { EventBus } from "./types";

export type { EventBus, PipelineStep, RunCountsSnapshot, RunEvent, RunProgress, RunState } from "./types";

/**
 * The bus for a database: PostgreSQL's LISTEN/NOTIFY when the studio shares a server (every
 * process hears every other), else one process's own (embedded PGlite has a single owner).
 */
export async function openEventBus(url: string | undefined = process.env.DATABASE_URL): Promise<EventBus> {
  if (!url) return new MemoryBus();
  // Loaded only for a server: the embedded setup never needs the pg driver.
  const { PgBus } = await import("./pg-bus");
  return PgBus.connect(url);
}

// One bus per process, like the database: `colbench serve` opens it, route code finds it here.
const slot = Symbol.for("colbench.eventBus");
type Holder = { [slot]?: EventBus };

export function setEventBus(bus: EventBus): void {
  (globalThis as Holder)[slot] = bus;
}

export function getEventBus(): EventBus {
  const bus = (globalThis as Holder)[slot];
  if (!bus) throw new Error("no event bus in this process: start the studio with `npx colbench serve`");
  return bus;
}
