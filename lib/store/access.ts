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

export async function insertUser(prisma: PrismaClient, user: { name: string; role: Role; tokenHash: string }): Promise<UserRow> {
  const existing = await prisma.user.findUnique({ where: { name: user.name }, select: { id: true } });
  if (existing) throw new Error(`name: a user named "${user.name}" exists already`);
  return prisma.user.create({ data: user, select: userRow });
}

/**
 * The person at the machine in local mode labels as this user. Its name cannot be typed into
 * `users add`, it is disabled (no link signs it in), and it is not counted or listed as a user, so
 * a studio with only this row is still in local mode.
 */
export const LOCAL_USER = ":local";

export async function localUserId(prisma: PrismaClient, tokenHash: string): Promise<number> {
  const found = await prisma.user.findUnique({ where: { name: LOCAL_USER }, select: { id: true } });
  if (found) return found.id;
  const made = await prisma.user.upsert({ where: { name: LOCAL_USER }, update: {}, create: { name: LOCAL_USER, role: "admin", tokenHash, disabled: true }, select: { id: true } });
  return made.id;
}

export async function listUsers(prisma: PrismaClient): Promise<UserRow[]> {
  return prisma.user.findMany({ where: { name: { not: LOCAL_USER } }, orderBy: { id: "asc" }, select: userRow });
}

export async function countUsers(prisma: PrismaClient): Promise<number> {
  return prisma.user.count({ where: { name: { not: LOCAL_USER } } });
}

/** A new access token replaces the old one (a lost link is replaced, not recovered). */
export async function setUserToken(prisma: PrismaClient, name: string, tokenHash: string): Promise<UserRow | null> {
  const found = await prisma.user.findUnique({ where: { name }, select: { id: true } });
  if (!found) return null;
  return prisma.user.update({ where: { id: found.id }, data: { tokenHash }, select: userRow });
}

/** Disabling a user also ends their sessions. */
export async function setUserDisabled(prisma: PrismaClient, userId: number, disabled: boolean): Promise<void> {
  await prisma.$transaction([
    prisma.user.update({ where: { id: userId }, data: { disabled } }),
    ...(disabled ? [prisma.session.deleteMany({ where: { userId } })] : []),
  ]);
}

export async function userByToken(prisma: PrismaClient, tokenHash: string): Promise<UserRow | null> {
  const user = await prisma.user.findUnique({ where: { tokenHash }, select: userRow });
  return user && !user.disabled ? user : null;
}

export async function insertSession(prisma: PrismaClient, session: { userId: number; tokenHash: string; expiresAt: Date }): Promise<void> {
  await prisma.session.create({ data: session });
}

/** The user a session belongs to, while it has not expired and the user is not disabled. */
export async function sessionUser(prisma: PrismaClient, tokenHash: string): Promise<UserRow | null> {
  const session = await prisma.session.findUnique({ where: { tokenHash }, select: { expiresAt: true, user: { select: userRow } } });
  if (!session || session.expiresAt.getTime() <= Date.now() || session.user.disabled) return null;
  return session.user;
}

export async function deleteSession(prisma: PrismaClient, tokenHash: string): Promise<void> {
  await prisma.session.deleteMany({ where: { tokenHash } });
}

export async function insertSeatToken(prisma: PrismaClient, token: { episodeId: number; seat: "agent" | "simulator"; tokenHash: string }): Promise<void> {
  await prisma.seatToken.create({ data: token });
}

export async function seatByToken(prisma: PrismaClient, tokenHash: string): Promise<{ episodeId: number; seat: "agent" | "simulator" } | null> {
  return prisma.seatToken.findUnique({ where: { tokenHash }, select: { episodeId: true, seat: true } });
}
