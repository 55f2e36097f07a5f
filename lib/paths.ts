import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file so the CLI works from any working directory. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where the studio keeps its embedded database, renders and caches. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.COLBENCH_DATA ?? path.join(projectRoot, "data"));
}

/** Where the real ColBench test sets live in this workspace (absent on a user's machine). */
export function sharedColbenchDir(): string {
  return path.resolve(projectRoot, "..", "shared", "colbench");
}

/** The user's cache folder as the XDG spec has it ($XDG_CACHE_HOME, else ~/.cache), shared with Python's tools. */
export function userCacheDir(): string {
  return process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
}
