import fs from "node:fs/promises";
import path from "node:path";
import { dataDir } from "../paths";
import { part, type Part } from "./types";

const FIX = "make it writable by this user (chown or chmod), or set COLBENCH_DATA to a folder this user can write";

/** Creates and removes a folder in `dir`: the one proof of writability that holds for root and read-only mounts alike. */
async function canWrite(dir: string): Promise<string | undefined> {
  try {
    const probe = await fs.mkdtemp(path.join(/*turbopackIgnore: true*/ dir, ".colbench-doctor-"));
    await fs.rm(probe, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/**
 * The data folder (COLBENCH_DATA, default ./data): the embedded database, renders, caches and backups
 * are written there, so it must be writable, or creatable when it does not exist yet.
 */
export async function checkDataFolder(dir = dataDir()): Promise<Part> {
  const base = { id: "data-folder", name: "Data folder", required: true };
  const stat = await fs.stat(/*turbopackIgnore: true*/ dir).catch(() => undefined);
  if (stat && !stat.isDirectory()) {
    return part({
      ...base,
      status: "missing",
      summary: `${dir} is a file, not a folder`,
      fix: "move that file away, or set COLBENCH_DATA to a folder",
      details: { path: dir },
    });
  }
  if (stat) {
    const refused = await canWrite(dir);
    return refused
      ? part({
          ...base,
          status: "missing",
          summary: `${dir} is not writable (${refused}): the database, renders and backups cannot be stored`,
          fix: FIX,
          details: { path: dir, exists: true, writable: false },
        })
      : part({
          ...base,
          status: "ok",
          summary: `${dir} (writable)`,
          details: { path: dir, exists: true, writable: true },
        });
  }
  let parent = path.dirname(dir);
  while (
    !(await fs.stat(/*turbopackIgnore: true*/ parent).then(
      (s) => s.isDirectory(),
      () => false,
    )) &&
    path.dirname(parent) !== parent
  )
    parent = path.dirname(parent);
  const refused = await canWrite(parent);
  return refused
    ? part({
        ...base,
        status: "missing",
        summary: `${dir} does not exist and cannot be created: ${parent} is not writable (${refused})`,
        fix: `create ${dir} and make it writable by this user, or set COLBENCH_DATA to a folder this user can write`,
        details: { path: dir, exists: false, writable: false, parent },
      })
    : part({
        ...base,
        status: "ok",
        summary: `${dir} (not created yet; the first \`colbench\` command or studio start creates it)`,
        details: { path: dir, exists: false, writable: true, parent },
      });
}
