import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// The published placeholder photo: the scorer of the paper rewrites every picsum.photos and
// random-Unsplash URL of an answer to picsum.photos/id/48/W/H, and the official target pages all
// use that photo, so with it the pictures in both screenshots are the real ones. The project
// cannot download it; a person supplies the file (--placeholder-photo PATH or
// COLBENCH_PLACEHOLDER_PHOTO), else placeholders are generated stand-ins. Which of the two a render
// used is part of its profile, so scores made with and without it never mix unnoticed.

export interface PlaceholderPhoto {
  path: string;
  /** The profile's placeholders field: "picsum-48:" and the first 12 hex digits of the file's sha256. */
  placeholders: string;
}

/**
 * Where a photo may come from besides a path given by the user: the hub cache (lib/hub, being
 * built) will answer with a local path once it has fetched picsum.photos/id/48 on a machine that is
 * online. Pass it as `fromCache`; until then nothing calls it.
 */
export type PlaceholderPhotoSource = () => Promise<string | null> | string | null;

export function placeholderPhotoAt(file: string): PlaceholderPhoto {
  const resolved = path.resolve(file);
  if (!existsSync(resolved))
    throw new Error(
      `placeholder photo ${file}: no such file (supply picsum.photos/id/48 as a JPEG or PNG, or leave the option out for generated stand-ins)`,
    );
  const bytes = readFileSync(resolved);
  if (!isImage(bytes)) throw new Error(`placeholder photo ${file}: not a JPEG, PNG or WebP image`);
  return { path: resolved, placeholders: `picsum-48:${createHash("sha256").update(bytes).digest("hex").slice(0, 12)}` };
}

/**
 * The photo to use: the option (null: none, whatever else is set), else $COLBENCH_PLACEHOLDER_PHOTO,
 * else the cache hook, else none (generated stand-ins).
 */
export async function resolvePlaceholderPhoto(
  option?: string | null,
  fromCache?: PlaceholderPhotoSource,
): Promise<PlaceholderPhoto | null> {
  if (option === null) return null;
  const given = option ?? process.env.COLBENCH_PLACEHOLDER_PHOTO;
  if (given) return placeholderPhotoAt(given);
  const cached = fromCache ? await fromCache() : null;
  return cached ? placeholderPhotoAt(cached) : null;
}

function isImage(b: Buffer): boolean {
  const jpeg = b[0] === 0xff && b[1] === 0xd8;
  const png = b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const webp = b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP";
  return jpeg || png || webp;
}
