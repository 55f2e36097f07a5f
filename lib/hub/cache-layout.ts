import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { getRepoFolderName } from "@huggingface/hub";
import type { HubRepo } from "./ref";

// The cache as Python's huggingface_hub lays it out, so either side finds what the other fetched:
//
//   <cache>/models--openai--clip-vit-base-patch32/
//     refs/main                      the commit a branch or tag pointed at when last asked
//     blobs/<etag>                   each file's bytes once, named by sha256 (LFS) or git blob sha1
//     blobs/<etag>.incomplete        a download in progress (never read as the file; resumed)
//     snapshots/<commit>/<path>      relative symlinks into blobs/
//     .no_exist/<commit>/<path>      files known to be absent at that commit (optional files)

export const COMMIT = /^[0-9a-f]{40}$/;

export function repoDir(cacheDir: string, repo: Pick<HubRepo, "type" | "name">): string {
  return path.join(cacheDir, getRepoFolderName({ type: repo.type, name: repo.name }));
}

/** The commit a revision names in this cache: itself for a commit, else what refs/<revision> says. */
export function cachedCommit(dir: string, revision: string): string | null {
  if (COMMIT.test(revision)) return revision;
  try {
    const commit = readFileSync(path.join(dir, "refs", revision), "utf8").trim();
    return COMMIT.test(commit) ? commit : null;
  } catch {
    return null;
  }
}

export function writeRef(dir: string, revision: string, commit: string): void {
  if (revision === commit) return;
  const file = path.join(dir, "refs", revision);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, commit);
}

export function snapshotDir(dir: string, commit: string): string {
  return path.join(dir, "snapshots", commit);
}

/** A file of a snapshot that can be read (a dangling link, to a blob deleted by hand, is not one). */
export function inSnapshot(dir: string, commit: string, file: string): boolean {
  try {
    return statSync(path.join(snapshotDir(dir, commit), file)).isFile();
  } catch {
    return false;
  }
}

export function knownMissing(dir: string, commit: string, file: string): boolean {
  return existsSync(path.join(dir, ".no_exist", commit, file));
}

export function markMissing(dir: string, commit: string, file: string): void {
  const marker = path.join(dir, ".no_exist", commit, file);
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, "");
}

export function blobPath(dir: string, etag: string): string {
  return path.join(dir, "blobs", etag);
}

/** Points snapshots/<commit>/<file> at a blob with a relative link (a copy where links are refused). */
export function linkBlob(dir: string, commit: string, file: string, etag: string): void {
  const target = path.join(snapshotDir(dir, commit), file);
  mkdirSync(path.dirname(target), { recursive: true });
  rmSync(target, { force: true });
  const blob = blobPath(dir, etag);
  try {
    symlinkSync(path.relative(path.dirname(target), blob), target);
  } catch {
    copyFileSync(blob, target);
  }
}
