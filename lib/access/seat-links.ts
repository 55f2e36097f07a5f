import type { Store } from "../store";
import type { SeatKeyRow } from "../store/access";
import { newLink } from "./users";
import type { SeatName } from "./viewer";

// Seat links: /play/EPISODE/agent?key=… (or /collaborator) opens one seat of one episode for a person
// without an account. A key is made only by whoever hands the seat out (starting a played episode,
// or a researcher on the episode's page), never by a seat's own page: a page that made keys would
// give whoever sees it the other seat. It expires like a sign-in link and can be revoked; opening
// it asks to confirm before the gate swaps it for a cookie (lib/access/http.ts).

/** A seat's page: the simulator's seat is the collaborator's. */
export function seatPath(episodeId: number, seat: SeatName): string {
  return `/play/${episodeId}/${seat === "agent" ? "agent" : "collaborator"}`;
}

/** The seat a seat page's path names, or null for any other path. */
export function seatOfPath(path: string): { episodeId: number; seat: SeatName } | null {
  const m = /^\/play\/(\d+)\/(agent|collaborator)$/.exec(path);
  return m ? { episodeId: Number(m[1]), seat: m[2] === "agent" ? "agent" : "simulator" } : null;
}

export const SEAT_WORDS: Record<SeatName, string> = { agent: "the agent's seat", simulator: "the collaborator's seat" };

export interface IssuedSeatLink {
  id: number;
  seat: SeatName;
  /** The seat's page with its key: shown once, to whoever hands it out (only its hash is kept). */
  url: string;
  expiresAt: Date;
}

/** A new key for one seat, valid for `days` (else COLBENCH_LINK_DAYS, else 7). */
export async function issueSeatLink(
  store: Store,
  episodeId: number,
  seat: SeatName,
  days?: number | string | null,
): Promise<IssuedSeatLink> {
  const { token, link } = newLink(days);
  const row: SeatKeyRow = await store.seats.insertToken({ episodeId, seat, ...link });
  return {
    id: row.id,
    seat,
    url: `${seatPath(episodeId, seat)}?key=${encodeURIComponent(token)}`,
    expiresAt: row.expiresAt,
  };
}

export type SeatKeyStatus = "open" | "opened" | "expired" | "revoked";

/** How a listed key stands now. */
export function seatKeyStatus(
  row: Pick<SeatKeyRow, "expiresAt" | "revokedAt" | "openedAt">,
  now = Date.now(),
): SeatKeyStatus {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt.getTime() <= now) return "expired";
  return row.openedAt ? "opened" : "open";
}
