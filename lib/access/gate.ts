import { parse as parseCookies } from "cookie";
import type { Store } from "../store";
import { decide, type Decision } from "./policy";
import { hashToken } from "./tokens";
import { SEAT_COOKIE, SESSION_COOKIE, userViewer, type SeatName, type Viewer } from "./viewer";

export interface Admission {
  viewer: Viewer;
  decision: Decision;
}

export interface GateOptions {
  /** Listening on loopback only: with no user defined, the person at the machine is admin. */
  loopback: boolean;
}

/** Who a request comes from and whether it may go on; runs before Next.js sees the request. */
export async function admit(
  store: Store,
  request: { method: string; url: string; cookie?: string },
  options: GateOptions,
): Promise<Admission> {
  const url = new URL(request.url, "http://studio.invalid");
  const cookies = parseCookies(request.cookie ?? "");
  const viewer = await resolve(store, cookies, options);
  const decision = decide(viewer, request.method, url.pathname, url.searchParams);
  return { viewer, decision };
}

/**
 * A seat link's `?key=` grants nothing by itself: only the cookie a confirmed link was swapped for
 * does (lib/access/http.ts), so a page elsewhere that sends a browser to a link seats nobody.
 */
async function resolve(
  store: Store,
  cookies: Record<string, string | undefined>,
  options: GateOptions,
): Promise<Viewer> {
  const session = cookies[SESSION_COOKIE];
  if (session) {
    const user = await store.sessions.user(hashToken(session));
    if (user) return userViewer(user);
  }
  if (options.loopback && (await store.users.count()) === 0) return { kind: "local" };
  const seats: Array<{ episodeId: number; seat: SeatName }> = [];
  for (const [name, token] of Object.entries(cookies)) {
    const m = SEAT_COOKIE.exec(name);
    if (!m || !token) continue;
    // An expired or revoked key opens nothing, whatever the cookie's own lifetime says.
    const grant = await store.seats.byToken(hashToken(token));
    if (grant && grant.episodeId === Number(m[1]) && grant.seat === m[2]) seats.push(grant);
  }
  return seats.length ? { kind: "seats", seats } : { kind: "anonymous" };
}
