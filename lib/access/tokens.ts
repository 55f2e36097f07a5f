import { createHash, randomBytes } from "node:crypto";

/** A secret for a link or a cookie: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a secret: its sha256, so a copy of the database signs nobody in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
