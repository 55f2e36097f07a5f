import type { Store } from "../store";
import type { Role, UserRow } from "../store/access";
import { hashToken, newToken } from "./tokens";

export const ROLES: readonly Role[] = ["admin", "researcher", "annotator"];

/** How long a sign-in lasts before the person needs a new link. */
export const SESSION_DAYS = 30;

/**
 * How long an unused sign-in link stays good, and a seat link at all, unless the admin says otherwise
 * (`--expires-in`, COLBENCH_LINK_DAYS).
 */
export const LINK_DAYS = 7;

/** The link lifetime in days: the one asked for, else COLBENCH_LINK_DAYS, else LINK_DAYS. */
export function linkDays(asked?: number | string | null): number {
  const raw = asked ?? process.env.COLBENCH_LINK_DAYS;
  if (raw === undefined || raw === null || raw === "") return LINK_DAYS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0 || days > 365)
    throw new Error(`link lifetime: a number of days between 0 and 365 (got "${raw}")`);
  return days;
}

export function signInUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, "")}/signin?token=${encodeURIComponent(token)}`;
}

/** A secret for a link, kept as its hash, and when the link stops working (sign-in and seat links alike). */
export function newLink(days?: number | string | null): {
  token: string;
  link: { tokenHash: string; expiresAt: Date };
} {
  const token = newToken();
  return {
    token,
    link: { tokenHash: hashToken(token), expiresAt: new Date(Date.now() + linkDays(days) * 24 * 3600 * 1000) },
  };
}

/** A new person: the token in the returned link is shown once, kept only as a hash, used once. */
export async function addUser(
  store: Store,
  name: string,
  role: Role,
  days?: number | string | null,
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  if (!/^[\w.@-]{1,64}$/.test(name)) throw new Error(`name: 1-64 letters, digits, or . _ @ - (got "${name}")`);
  if (!ROLES.includes(role)) throw new Error(`role: one of ${ROLES.join(", ")} (got "${role}")`);
  const { token, link } = newLink(days);
  const user = await store.users.insert({ name, role }, link);
  return { user, token, expiresAt: link.expiresAt };
}

/** A fresh sign-in link for someone who lost theirs or used it up; their unused ones stop working. */
export async function renewLink(
  store: Store,
  name: string,
  days?: number | string | null,
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const { token, link } = newLink(days);
  const user = await store.users.replaceLink(name, link);
  if (!user) throw new Error(`no user named "${name}"`);
  return { user, token, expiresAt: link.expiresAt };
}

/**
 * Exchanges a sign-in link's token for a session token (the cookie), once: a second use, an
 * expired link or a disabled person's gets null.
 */
export async function signIn(
  store: Store,
  token: string,
): Promise<{ user: UserRow; session: string; expires: Date } | null> {
  const user = await store.users.useLink(hashToken(token));
  if (!user) return null;
  const session = newToken();
  const expires = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await store.sessions.insert({ userId: user.id, tokenHash: hashToken(session), expiresAt: expires });
  return { user, session, expires };
}
