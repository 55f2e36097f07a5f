import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { PGlite } from "@electric-sql/pglite";
import { userCacheDir } from "../paths";

// A new PGlite folder starts as a copy of a freshly initialised cluster rather than running initdb
// again. PGlite's initdb is WebAssembly that takes 1.5-3 s and 2-4.5 CPU-s on this machine kind, and
// its result depends only on the PGlite build (its settings are fixed: UTC, the C locale, whatever the
// environment says), so one image per PGlite version serves every folder: copying its ~970 files
// (39 MB, 16 of them the write-ahead log's first segment) takes 0.1-0.7 s.
// Migrations still run on the copy as on any new folder, so `applied` and `_prisma_migrations` say what
// happened to it. The copies share the image's system identifier (pg_control), which only physical
// replication and WAL archives read; neither exists here.
//
// The image is built once per machine, in a scratch folder beside it and renamed into place only
// after PGlite closed it cleanly, so a crash or a second process building at the same time never
// leaves a partial image. Where no image can be kept (a read-only cache, a full disk), the folder is
// created by PGlite as before, and the reason is printed once.

/** COLBENCH_PGLITE_IMAGES: where images are kept ("off": none, every folder runs initdb). */
export function imagesRoot(): string | null {
  const set = process.env.COLBENCH_PGLITE_IMAGES;
  if (set === "off") return null;
  if (set) return path.resolve(set);
  return path.join(userCacheDir(), "colbench", "pglite-images");
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  // The package does not export its package.json; its entry lies in dist/ beside it.
  const entry = require.resolve("@electric-sql/pglite");
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/** The image's folder for the installed PGlite; complete when it holds PG_VERSION (written by initdb, renamed in last). */
export function imagePath(root: string): string {
  return path.join(root, `pglite-${pgliteVersion()}`);
}

const isComplete = (image: string) => fs.existsSync(path.join(image, "PG_VERSION"));

async function buildImage(image: string): Promise<void> {
  await fsp.mkdir(path.dirname(image), { recursive: true });
  const scratch = await fsp.mkdtemp(`${image}.building-`);
  try {
    const pg = await PGlite.create(path.join(scratch, "cluster"));
    await pg.close();
    try {
      await fsp.rename(path.join(scratch, "cluster"), image);
    } catch (error) {
      // Another process renamed its own image into place first: the same bytes, so keep that one.
      const code = (error as NodeJS.ErrnoException).code;
      if (!((code === "ENOTEMPTY" || code === "EEXIST") && isComplete(image))) throw error;
    }
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

export type Seeding = "existing" | "copied" | "built and copied" | "not seeded";

/** Present in a folder while it is being filled: a folder holding it was left half-made by a start that died. */
const FILLING = ".colbench-filling";

/** Removes what is in `dir`, not `dir` itself (it may be a mount point, or a link's target). */
function empty(dir: string): void {
  for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
}

/**
 * Fills `dir` from the image when it is missing, empty, or left half-filled (the caller holds the
 * folder's ownership lock, so nobody else writes it meanwhile); leaves any other folder alone. The
 * copy goes into the folder itself, which may be a mount point or a link to another disk, behind a
 * marker that is removed last, so a copy cut short is found and done again.
 */
export async function seedFromImage(dir: string, warn: (line: string) => void): Promise<Seeding> {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (entries.length > 0 && !entries.includes(FILLING)) return "existing";
  const root = imagesRoot();
  if (!root) return "not seeded";
  const image = imagePath(root);
  try {
    const built = !isComplete(image);
    if (built) await buildImage(image);
    fs.mkdirSync(dir, { recursive: true });
    // cpSync will not copy onto a link: into the folder it points to, then.
    const target = fs.realpathSync(dir);
    empty(target);
    fs.writeFileSync(path.join(target, FILLING), "");
    // Synchronous: this thread has nothing else to do yet, and Node's cpSync copies the ~970 files in
    // half the time its promise version takes. A copy-on-write clone where the file system has one.
    fs.cpSync(image, target, { recursive: true, mode: fs.constants.COPYFILE_FICLONE });
    fs.rmSync(path.join(target, FILLING));
    return built ? "built and copied" : "copied";
  } catch (error) {
    // PGlite then finds the folder as it would a new one: empty, or not there.
    try {
      if (fs.existsSync(dir)) empty(dir);
    } catch {
      // What could not be removed, PGlite will name when it opens the folder.
    }
    warn(
      `colbench: could not fill ${dir} from the PGlite image at ${image} (${(error as Error).message}); PGlite initialises it from scratch (set COLBENCH_PGLITE_IMAGES to a writable folder, or "off")`,
    );
    return "not seeded";
  }
}
