import { randomUUID } from "node:crypto";
import os from "node:os";

/** How long an episode's claim holds unless renewed; a player renews it every third of that. */
export const CLAIM_LEASE_MS = 30_000;

let owner: string | null = null;

/** This process, as written on the episodes it plays: the machine, the pid, and a nonce. */
export function processOwner(): string {
  owner ??= `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return owner;
}

/**
 * Whether a claim holder named by `processOwner()` is a process of this machine that has ended.
 * (Embedded PGlite is reached only from its own machine, so there that settles it.)
 */
export function endedHere(holder: string): boolean {
  const [host, pidText] = holder.split(":");
  if (host !== os.hostname() || !/^\d+$/.test(pidText ?? "")) return false;
  try {
    process.kill(Number(pidText), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
