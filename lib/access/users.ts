import type { Store } from "../store";
import type { Role, UserRow } from "../store/access";
import { hashToken, newToken } from "./tokens";

export const ROLES: readonly Role[] = ["admin", "researcher", "annotator"];

/** How long a sign-in lasts before the link must be opened again. */
export const SESSION_DAYS = 30;

export function signInUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, "")}/signin?token=${encodeURIComponent(token)}`;
}

/** A new person: the token in the returned link is shown once and kept only as a hash. */
export async function addUser(store: Store, name: string, role: Role): Promise<{ user: UserRow; token: string }> {
  if (!/^[\w.@-]{1,64}$/.test(name)) throw new Error(`name: 1-64 letters, digits, or . _ @ - (got "${name}")`);
  if (!ROLES.includes(role)) throw new Error(`role: one of ${ROLES.join(", ")} (got "${role}")`);
  const token = newToken();
  const user = await store.users.insert({ name, role, tokenHash: hashToken(token) });
  return { user, token };
}

/** A fresh sign-in link for someone who lost theirs; the old one stops working. */
export async function renewLink(store: Store, name: string): Promise<{ user: UserRow; token: string }> {
  const token = newToken();
  const user = await store.users.setToken(name, hashToken(token));
  if (!user) throw new Error(`no user named "${name}"`);
  return { user, token };
}

/** Exchanges a sign-in link's token for a session token (the cookie), or null when it opens nothing. */
export async function signIn(store: Store, token: string): Promise<{ user: UserRow; session: string; expires: Date } | null> {
  const user = await store.users.byToken(hashToken(token));
  if (!user) return null;
  const session = newToken();
  const expires = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await store.sessions.insert({ userId: user.id, tokenHash: hashToken(session), expiresAt: expires });
  return { user, session, expires };
}

/** A link to one seat of one episode for someone without an account. */
export async function seatLink(store: Store, episodeId: number, seat: "agent" | "simulator"): Promise<string> {
  const token = newToken();
  await store.seats.insertToken({ episodeId, seat, tokenHash: hashToken(token) });
  return `/play/${episodeId}/${seat === "agent" ? "agent" : "collaborator"}?key=${encodeURIComponent(token)}`;
}
