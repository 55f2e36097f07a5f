import type { Role, UserRow } from "../store/access";

// Who is asking: a signed-in person with a role, whoever sits at a studio that is open to its own
// machine only (no users defined, listening on loopback), the holder of seat links, or nobody.

export type SeatName = "agent" | "simulator";

export type Viewer =
  | { kind: "user"; id: number; name: string; role: Role }
  /** Local mode: the person at the machine is admin. */
  | { kind: "local" }
  | { kind: "seats"; seats: Array<{ episodeId: number; seat: SeatName }> }
  | { kind: "anonymous" };

export const SESSION_COOKIE = "colbench_session";
/** Seat links set one cookie per seat: colbench_seat_<episode>_<seat>. */
export const SEAT_COOKIE = /^colbench_seat_(\d+)_(agent|simulator)$/;
export const seatCookie = (episodeId: number, seat: SeatName) => `colbench_seat_${episodeId}_${seat}`;

/** The request header the gate sets for pages and routes (any copy a client sends is dropped first). */
export const VIEWER_HEADER = "x-colbench-viewer";

/** The scheme the request came over ("https" directly or through a trusted proxy, else "http"), set by the gate. */
export const PROTO_HEADER = "x-colbench-proto";

/** The path the person asked for, set by the gate too, so a not-found page can name what is missing. */
export const PATH_HEADER = "x-colbench-path";

export function userViewer(user: UserRow): Viewer {
  return { kind: "user", id: user.id, name: user.name, role: user.role };
}

/** May see ground truths, tests, target pages and their renders of every task. */
export function seesHidden(viewer: Viewer): boolean {
  return (
    viewer.kind === "local" || (viewer.kind === "user" && (viewer.role === "admin" || viewer.role === "researcher"))
  );
}

export function isAdmin(viewer: Viewer): boolean {
  return viewer.kind === "local" || (viewer.kind === "user" && viewer.role === "admin");
}

/** Reads the header the gate set; a request that did not pass the gate is nobody. */
export function viewerFromHeader(value: string | null | undefined): Viewer {
  if (!value) return { kind: "anonymous" };
  try {
    return JSON.parse(value) as Viewer;
  } catch {
    return { kind: "anonymous" };
  }
}
