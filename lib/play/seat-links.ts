import { issueSeatLink, seatKeyStatus, type IssuedSeatLink, type SeatKeyStatus } from "../access/seat-links";
import type { SeatName } from "../access/viewer";
import type { Store } from "../store";
import type { SeatKeyRow } from "../store/access";
import { personSeats } from "./seat-views";

// An episode's seat links as researchers see and manage them (its page, /api/episodes/ID/seat-links).
// Only the seats a person plays are handed out: a model's seat has nobody to give a link to.

export interface SeatLinkRow extends SeatKeyRow {
  status: SeatKeyStatus;
}

export interface EpisodeSeatLinks {
  episodeId: number;
  /** The seats people play in this episode (the ones a link may be made for). */
  people: Record<SeatName, boolean>;
  links: SeatLinkRow[];
}

export class SeatLinkRefused extends Error {
  override readonly name = "SeatLinkRefused";
  constructor(
    message: string,
    readonly status: 404 | 409,
  ) {
    super(message);
  }
}

export async function episodeSeatLinks(store: Store, episodeId: number): Promise<EpisodeSeatLinks | null> {
  const episode = await store.episodes.forSeat(episodeId);
  if (!episode) return null;
  const { agent, simulator } = personSeats(episode.runConfig);
  const now = Date.now();
  const links = (await store.seats.list(episodeId)).map((row) => ({ ...row, status: seatKeyStatus(row, now) }));
  return { episodeId, people: { agent, simulator }, links };
}

/** A new link for a person's seat, made by the researcher who hands it out (shown to them once). */
export async function handOutSeat(
  store: Store,
  episodeId: number,
  seat: SeatName,
  days?: number | string | null,
): Promise<IssuedSeatLink> {
  const episode = await store.episodes.forSeat(episodeId);
  if (!episode) throw new SeatLinkRefused(`no episode ${episodeId}`, 404);
  if (!personSeats(episode.runConfig)[seat])
    throw new SeatLinkRefused(
      `a model server plays the ${seat === "agent" ? "agent" : "collaborator"} in episode ${episodeId}: there is nobody to hand that seat to`,
      409,
    );
  // A failed episode may be retried and played on; a finished one is only replayed (researchers).
  if (episode.status === "done")
    throw new SeatLinkRefused(`episode ${episodeId} has ended: its seats are no longer played`, 409);
  return issueSeatLink(store, episodeId, seat, days);
}
