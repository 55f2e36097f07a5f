// A queue's per-person quota as its lead sets it (`colbench queues quota`, the agreement page's
// setting, POST /api/queues/ID/quota): the most non-gold pairs one person labels in it. The
// desk's claims stop at it (lib/store/labels.ts, QUOTA_OPEN_SQL); the labels already given stay.

import type { Store } from "../store";
import type { QueueRow } from "../store/queues";

/** A quota as typed: a whole number of pairs (at least 1), or "none" / "" for no cap. */
export function parseQuota(text: string, field = "quota"): number | null {
  const value = text.trim().toLowerCase();
  if (value === "" || value === "none" || value === "off") return null;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new Error(`${field}: a whole number of pairs, at least 1, or "none" for no cap (got "${text}")`);
  return Number(value);
}

/** Sets the queue's quota; what it was and what it is now. */
export async function setQuota(
  store: Store,
  queue: Pick<QueueRow, "id" | "name" | "quota">,
  quota: number | null,
): Promise<{ queue: string; quota: number | null; was: number | null }> {
  if (!(await store.queues.setQuota(queue.id, quota))) throw new Error(`no queue ${queue.id}`);
  return { queue: queue.name, quota, was: queue.quota };
}
