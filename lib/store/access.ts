import type { PrismaClient } from "../db/generated/client";

// People, their sessions, and seat links. Every secret arrives here already hashed.

export type Role = "admin" | "researcher" | "annotator";

export interface UserRow {
  id: number;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: Date;
}

const userRow = { id: true, name: true, role: true, disabled: true, createdAt: true } as const;

export async function insertUser(
  prisma: PrismaClient,
  user: { name: string; role: Role },
  link: { tokenHash: string; expiresAt: Date },
): Promise<UserRow> {
  const existing = await prisma.user.findUnique({ where: { name: user.name }, select: { id: true } });
  if (existing) throw new Error(`name: a user named "${user.name}" exists already`);
  return prisma.user.create({ data: { ...user, links: { create: link } }, select: userRow });
}

/**
 * The person at the machine in local mode labels as this user. Its name cannot be typed into
 * `users add`, it is disabled (no link signs it in), and it is not counted or listed as a user, so
 * a studio with only this row is still in local mode.
 */
export const LOCAL_USER = ":local";

export async function localUserId(prisma: PrismaClient): Promise<number> {
  const found = await prisma.user.findUnique({ where: { name: LOCAL_USER }, select: { id: true } });
  if (found) return found.id;
  const made = await prisma.user.upsert({
    where: { name: LOCAL_USER },
    update: {},
    create: { name: LOCAL_USER, role: "admin", disabled: true },
    select: { id: true },
  });
  return made.id;
}

export async function listUsers(prisma: PrismaClient): Promise<UserRow[]> {
  return prisma.user.findMany({ where: { name: { not: LOCAL_USER } }, orderBy: { id: "asc" }, select: userRow });
}

export async function countUsers(prisma: PrismaClient): Promise<number> {
  return prisma.user.count({ where: { name: { not: LOCAL_USER } } });
}

/**
 * A new sign-in link replaces the person's unused ones (a lost link is replaced, not recovered).
 * A disabled person gets none: enabling them again issues nothing by itself.
 */
export async function replaceSignInLink(
  prisma: PrismaClient,
  name: string,
  link: { tokenHash: string; expiresAt: Date },
): Promise<UserRow | null> {
  const found = await prisma.user.findUnique({ where: { name }, select: userRow });
  if (!found || found.name === LOCAL_USER) return null;
  if (found.disabled) throw new Error(`${name} is disabled: enable them first (\`colbench users enable ${name}\`)`);
  await prisma.$transaction([
    prisma.signInLink.deleteMany({ where: { userId: found.id, usedAt: null } }),
    prisma.signInLink.create({ data: { userId: found.id, ...link } }),
  ]);
  return found;
}

/** Disabling a person ends their sessions and revokes their links, for good; enabling restores neither. */
export async function setUserDisabled(prisma: PrismaClient, userId: number, disabled: boolean): Promise<void> {
  await prisma.$transaction([
    prisma.user.update({ where: { id: userId }, data: { disabled } }),
    ...(disabled
      ? [prisma.session.deleteMany({ where: { userId } }), prisma.signInLink.deleteMany({ where: { userId } })]
      : []),
  ]);
}

export type LinkState = { state: "open"; user: UserRow } | { state: "used" | "expired" | "unknown" };

/** What a sign-in link would do if used now, without using it (the confirm page says whom it signs in). */
export async function signInLinkState(prisma: PrismaClient, tokenHash: string): Promise<LinkState> {
  const link = await prisma.signInLink.findUnique({
    where: { tokenHash },
    select: { expiresAt: true, usedAt: true, user: { select: userRow } },
  });
  if (!link || link.user.disabled) return { state: "unknown" };
  if (link.usedAt) return { state: "used" };
  if (link.expiresAt.getTime() <= Date.now()) return { state: "expired" };
  return { state: "open", user: link.user };
}

/**
 * Uses a sign-in link: one statement marks it used only while it is unused and unexpired, so of
 * two requests with the same link exactly one gets the person back.
 */
export async function useSignInLink(prisma: PrismaClient, tokenHash: string): Promise<UserRow | null> {
  const used = await prisma.signInLink.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  if (used.count !== 1) return null;
  const link = await prisma.signInLink.findUnique({ where: { tokenHash }, select: { user: { select: userRow } } });
  return link && !link.user.disabled ? link.user : null;
}

export async function insertSession(
  prisma: PrismaClient,
  session: { userId: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await prisma.session.create({ data: session });
}

/** The user a session belongs to, while it has not expired and the user is not disabled. */
export async function sessionUser(prisma: PrismaClient, tokenHash: string): Promise<UserRow | null> {
  // Every signed-in request asks this: one statement, where Prisma's relation select makes two.
  const [row] = await prisma.$queryRaw<Array<UserRow & { expiresAt: Date }>>`
    SELECT u."id", u."name", u."role"::text AS "role", u."disabled", u."createdAt", s."expiresAt"
      FROM "Session" s JOIN "User" u ON u."id" = s."userId"
     WHERE s."tokenHash" = ${tokenHash}`;
  if (!row || row.expiresAt.getTime() <= Date.now() || row.disabled) return null;
  const { expiresAt: _, ...user } = row;
  return user;
}

export async function deleteSession(prisma: PrismaClient, tokenHash: string): Promise<void> {
  await prisma.session.deleteMany({ where: { tokenHash } });
}

export type SeatName = "agent" | "simulator";

/** A seat key as the episode's page lists it: never its hash, only what it opens and for how long. */
export interface SeatKeyRow {
  id: number;
  seat: SeatName;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  openedAt: Date | null;
}

const seatKeyRow = { id: true, seat: true, createdAt: true, expiresAt: true, revokedAt: true, openedAt: true } as const;

export async function insertSeatToken(
  prisma: PrismaClient,
  token: { episodeId: number; seat: SeatName; tokenHash: string; expiresAt: Date },
): Promise<SeatKeyRow> {
  return prisma.seatToken.create({ data: token, select: seatKeyRow });
}

const live = (row: { expiresAt: Date; revokedAt: Date | null }) =>
  row.revokedAt === null && row.expiresAt.getTime() > Date.now();

/** The seat a key (or the cookie it was exchanged for) opens now; an expired or revoked key opens none. */
export async function seatByToken(
  prisma: PrismaClient,
  tokenHash: string,
): Promise<{ episodeId: number; seat: SeatName } | null> {
  const row = await prisma.seatToken.findUnique({
    where: { tokenHash },
    select: { episodeId: true, seat: true, expiresAt: true, revokedAt: true },
  });
  return row && live(row) ? { episodeId: row.episodeId, seat: row.seat } : null;
}

export type SeatKeyState =
  { state: "open"; episodeId: number; seat: SeatName; expiresAt: Date } | { state: "expired" | "revoked" | "unknown" };

/** What a seat link would open if taken now, without taking it (the confirm page says which seat). */
export async function seatKeyState(prisma: PrismaClient, tokenHash: string): Promise<SeatKeyState> {
  const row = await prisma.seatToken.findUnique({
    where: { tokenHash },
    select: { episodeId: true, seat: true, expiresAt: true, revokedAt: true },
  });
  if (!row) return { state: "unknown" };
  if (row.revokedAt) return { state: "revoked" };
  if (row.expiresAt.getTime() <= Date.now()) return { state: "expired" };
  return { state: "open", episodeId: row.episodeId, seat: row.seat, expiresAt: row.expiresAt };
}

/**
 * Takes a seat with its key (the confirmation), when the key is for that seat; the first time is
 * recorded for the seat list. A key for another seat is no key here.
 */
export async function openSeatToken(
  prisma: PrismaClient,
  tokenHash: string,
  seat: { episodeId: number; seat: SeatName },
): Promise<SeatKeyState> {
  const state = await seatKeyState(prisma, tokenHash);
  if (state.state !== "open") return state;
  if (state.episodeId !== seat.episodeId || state.seat !== seat.seat) return { state: "unknown" };
  await prisma.seatToken.updateMany({ where: { tokenHash, openedAt: null }, data: { openedAt: new Date() } });
  return state;
}

/** An episode's seat keys, newest first, revoked and expired ones included. */
export async function listSeatTokens(prisma: PrismaClient, episodeId: number): Promise<SeatKeyRow[]> {
  return prisma.seatToken.findMany({ where: { episodeId }, orderBy: { id: "desc" }, select: seatKeyRow });
}

/**
 * Revokes an episode's live seat keys (one, by its id, or all): the cookies they were exchanged for
 * stop opening anything at once, since every request looks its key up. The rows stay, marked, for
 * the list; an expired key stays listed as expired. Returns how many were revoked.
 */
export async function revokeSeatTokens(prisma: PrismaClient, episodeId: number, id?: number): Promise<number> {
  const now = new Date();
  return (
    await prisma.seatToken.updateMany({
      where: { episodeId, revokedAt: null, expiresAt: { gt: now }, ...(id === undefined ? {} : { id }) },
      data: { revokedAt: now },
    })
  ).count;
}

/** The episodes whose agent turns, or scored answer, show this render (the agent's own pages). */
export async function answerRenderEpisodes(prisma: PrismaClient, renderId: string): Promise<number[]> {
  const rows = await prisma.$queryRaw<
    Array<{ episodeId: number }>
  >`SELECT DISTINCT "episodeId" FROM "Turn" WHERE "renderId" = ${renderId} LIMIT 100`;
  if (rows.length) return rows.map((r) => r.episodeId);
  // A scored answer whose turns carry no render (imported trajectories): the score names it.
  const scored = await prisma.$queryRaw<
    Array<{ id: number }>
  >`SELECT "id" FROM "Episode" WHERE "details"->>'answerRender' = ${renderId} LIMIT 100`;
  return scored.map((r) => r.id);
}

/** Whether the render is the scored target of a pair in a queue that shows hidden information to this member. */
export async function targetInMembersQueue(prisma: PrismaClient, renderId: string, userId: number): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`
    SELECT 1 FROM "QueueItem" i
      JOIN "Queue" q ON q.id = i."queueId" AND q."showsHidden"
      JOIN "QueueMember" m ON m."queueId" = q.id AND m."userId" = ${userId}
      JOIN "Episode" e ON e.id = i."aEpisodeId" OR e.id = i."bEpisodeId"
     WHERE e."details"->>'targetRender' = ${renderId}
     LIMIT 1`;
  return rows.length > 0;
}

/** An episode's task's target page (frontend), for checking that a render is that target. */
export async function episodeTarget(
  prisma: PrismaClient,
  episodeId: number,
): Promise<{ taskId: number; benchmark: string; groundTruth: string } | null> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: { task: { select: { id: true, benchmark: true, groundTruth: true } } },
  });
  return episode
    ? { taskId: episode.task.id, benchmark: episode.task.benchmark, groundTruth: episode.task.groundTruth }
    : null;
}
