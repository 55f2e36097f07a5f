import { parse as parseCookies } from "cookie";
import type { Store } from "../store";
import { decide, type Decision } from "./policy";
import { hashToken } from "./tokens";
import { SEAT_COOKIE, SESSION_COOKIE, userViewer, type SeatName, type Viewer } from "./viewer";

export interface Admission {
  viewer: Viewer;
  decision: Decision;
  /** A seat link's key that opened this request: the caller swaps it for that seat's cookie. */
  fromKey?: { episodeId: number; seat: SeatName; token: string };
}

export interface GateOptions {
  /** Listening on loopback only: with no user defined, the person at the machine is admin. */
  loopback: boolean;
}

/** Who a request comes from and whether it may go on; runs before Next.js sees the request. */
export async function admit(store: Store, request: { method: string; url: string; cookie?: string }, options: GateOptions): Promise<Admission> {
  const url = new URL(request.url, "http://studio.invalid");
  const cookies = parseCookies(request.cookie ?? "");
  const viewer = await resolve(store, url, cookies, options);
  const decision = decide(viewer.viewer, request.method, url.pathname, url.searchParams);
  return { viewer: viewer.viewer, decision, fromKey: viewer.fromKey };
}

async function resolve(
  store: Store,
  url: URL,
  cookies: Record<string, string | undefined>,
  options: GateOptions,
): Promise<{ viewer: Viewer; fromKey?: { episodeId: number; seat: SeatName; token: string } }> {
  const session = cookies[SESSION_COOKIE];
  if (session) {
    const user = await store.sessions.user(hashToken(session));
    if (user) return { viewer: userViewer(user) };
  }
  if (options.loopback && (await store.users.count()) === 0) return { viewer: { kind: "local" } };
  const seats: Array<{ episodeId: number; seat: SeatName }> = [];
  let fromKey: { episodeId: number; seat: SeatName; token: string } | undefined;
  // A seat link: /play/EPISODE/agent?key=TOKEN (or /collaborator).
  const link = /^\/play\/(\d+)\/(agent|collaborator)$/.exec(url.pathname);
  const key = url.searchParams.get("key");
  if (link && key) {
    const grant = await store.seats.byToken(hashToken(key));
    const seat: SeatName = link[2] === "agent" ? "agent" : "simulator";
    if (grant && grant.episodeId === Number(link[1]) && grant.seat === seat) {
      seats.push(grant);
      fromKey = { ...grant, token: key };
    }
  }
  for (const [name, token] of Object.entries(cookies)) {
    const m = SEAT_COOKIE.exec(name);
    if (!m || !token) continue;
    const grant = await store.seats.byToken(hashToken(token));
    if (grant && grant.episodeId === Number(m[1]) && grant.seat === m[2]) seats.push(grant);
  }
  return seats.length ? { viewer: { kind: "seats", seats }, fromKey } : { viewer: { kind: "anonymous" } };
}
