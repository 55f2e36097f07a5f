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
