import { EventEmitter } from "node:events";
import { durationMs } from "../colbench/duration";

// A circuit breaker per model server, shared by every client and job of one process: once the
// server stops answering (no connection, a timeout, HTTP 5xx) requests stop hammering it and wait;
// one of them probes it now and then, with exponential backoff and jitter, and when a probe gets
// an answer all of them go on. How long to wait before giving up is the caller's to decide, from
// `outage.since`.

export interface Outage {
  /** The server as its base URL. */
  server: string;
  /** What the last attempt met: "connect ECONNREFUSED 127.0.0.1:9", "HTTP 503", … */
  cause: string;
  /** When the server stopped answering (ms since the epoch). */
  since: number;
}

const FIRST_PROBE_MS = 500;
const MAX_PROBE_MS = 8_000;

/** Tells of every server that goes down or comes back: `change` with the server and its outage, or null. */
export const outageEvents = new EventEmitter<{ change: [server: string, outage: Outage | null] }>();
outageEvents.setMaxListeners(0);

export class Breaker {
  outage: Outage | null = null;
  private probes = 0;
  private probeAt = 0;
  private probing = false;
  private readonly wakers = new Set<() => void>();

  constructor(readonly server: string) {}

  /**
   * Resolves when the caller may send: at once while the server is up; while it is down, when this
   * caller is the one to probe it, or at `deadline` (the caller checks its give-up time then).
   * Returns whether the caller is probing (it must report the outcome).
   */
  async admit(signal?: AbortSignal, deadline = Infinity): Promise<boolean> {
    for (;;) {
      signal?.throwIfAborted();
      if (!this.outage) return false;
      const now = Date.now();
      if (now >= deadline) return false;
      if (!this.probing && now >= this.probeAt) {
        this.probing = true;
        return true;
      }
      const wait = Math.min(this.probing ? MAX_PROBE_MS : this.probeAt - now, deadline - now);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(wait, 1));
        this.wakers.add(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  /** An answer came back: the server is up, every waiter goes on. */
  succeeded(probe: boolean): void {
    if (probe) this.probing = false;
    if (this.outage) {
      this.outage = null;
      this.probes = 0;
      outageEvents.emit("change", this.server, null);
    }
    this.wake();
  }

  /** The server did not answer: the outage starts, or lasts; the next probe waits longer. */
  failed(cause: string, probe: boolean): void {
    if (probe) this.probing = false;
    const now = Date.now();
    if (!this.outage) {
      this.outage = { server: this.server, cause, since: now };
      this.probes = 0;
      outageEvents.emit("change", this.server, { ...this.outage });
    } else if (this.outage.cause !== cause) {
      this.outage = { ...this.outage, cause };
      outageEvents.emit("change", this.server, { ...this.outage });
    }
    if (probe || this.probeAt <= now) {
      const base = Math.min(FIRST_PROBE_MS * 2 ** this.probes++, MAX_PROBE_MS);
      this.probeAt = now + base * (0.5 + Math.random() / 2);
    }
    this.wake();
  }

  /** A probe ended without an outcome (its caller stopped): someone else probes. */
  abandoned(probe: boolean): void {
    if (!probe) return;
    this.probing = false;
    this.wake();
  }

  private wake(): void {
    for (const wake of [...this.wakers]) wake();
  }
}

const breakers = new Map<string, Breaker>();

/** The process's breaker for a server (by base URL). */
export function breakerFor(server: string): Breaker {
  let breaker = breakers.get(server);
  if (!breaker) breakers.set(server, (breaker = new Breaker(server)));
  return breaker;
}

/** The servers of this process that are down now. */
export function currentOutages(): Outage[] {
  return [...breakers.values()].flatMap((b) => (b.outage ? [{ ...b.outage }] : []));
}

/** How long a client waits out an outage before it fails the request, unless told otherwise ($COLBENCH_GIVE_UP, else 10 minutes). */
export const DEFAULT_GIVE_UP_MS =
  durationMs(process.env.COLBENCH_GIVE_UP ?? "") > 0 ? durationMs(process.env.COLBENCH_GIVE_UP!) : 10 * 60_000;
