import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { repoDir } from "./cache-layout";
import { parseHubId, repoLabel, type RepoType } from "./ref";
import { hubSettings, type HubSettings } from "./settings";

// What the shared cache holds, for the studio's Models page and `colbench models`. The library's
// scanCacheDir skips files in sub-folders (a dataset's backend_tasks/test.jsonl) and gives up on a
// repository without refs/ (one fetched by commit), so the cache is read here, the same layout.

export interface CachedRevision {
  commit: string;
  /** Branches and tags that pointed here when last asked (refs/…). */
  refs: string[];
  files: string[];
  size: number;
}

export interface CachedRepo {
  /** `owner/name`, or `datasets/owner/name`. */
  id: string;
  type: RepoType;
  name: string;
  /** Bytes on disk: every complete blob, once. */
  size: number;
  /** Bytes of downloads that were cut off and will be resumed. */
  partial: number;
  revisions: CachedRevision[];
  lastModified: string;
}

function walk(dir: string, base = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

function readRepo(cacheDir: string, folder: string): CachedRepo | null {
  const m = /^(models|datasets)--(.+)$/.exec(folder);
  if (!m) return null;
  const type: RepoType = m[1] === "datasets" ? "dataset" : "model";
  const name = m[2]!.split("--").join("/");
  const dir = path.join(cacheDir, folder);
  const refsByCommit = new Map<string, string[]>();
  const refsDir = path.join(dir, "refs");
  if (existsSync(refsDir)) {
    for (const ref of walk(refsDir)) {
      const commit = readFileSync(path.join(refsDir, ref), "utf8").trim();
      refsByCommit.set(commit, [...(refsByCommit.get(commit) ?? []), ref]);
    }
  }
  const revisions: CachedRevision[] = [];
  const snapshots = path.join(dir, "snapshots");
  for (const commit of existsSync(snapshots) ? readdirSync(snapshots) : []) {
    const files: string[] = [];
    const blobs = new Set<string>();
    let size = 0;
    for (const file of walk(path.join(snapshots, commit))) {
      try {
        const real = realpathSync(path.join(snapshots, commit, file));
        files.push(file);
        if (!blobs.has(real)) {
          blobs.add(real);
          size += statSync(real).size;
        }
      } catch {
        // A link to a blob someone deleted: not a usable file.
      }
    }
    revisions.push({ commit, refs: refsByCommit.get(commit) ?? [], files: files.sort(), size });
  }
  let size = 0;
  let partial = 0;
  let lastModified = statSync(dir).mtimeMs;
  const blobsDir = path.join(dir, "blobs");
  for (const blob of existsSync(blobsDir) ? readdirSync(blobsDir) : []) {
    const s = statSync(path.join(blobsDir, blob));
    if (blob.endsWith(".incomplete")) partial += s.size;
    else size += s.size;
    lastModified = Math.max(lastModified, s.mtimeMs);
  }
  return {
    id: repoLabel({ type, name }),
    type,
    name,
    size,
    partial,
    revisions,
    lastModified: new Date(lastModified).toISOString(),
  };
}

/** Every model and dataset repository in the cache, largest first. */
export function listCached(settings: Partial<HubSettings> = {}): { cacheDir: string; repos: CachedRepo[] } {
  const { cacheDir } = hubSettings(settings);
  if (!existsSync(cacheDir)) return { cacheDir, repos: [] };
  const repos = readdirSync(cacheDir)
    .map((folder) => readRepo(cacheDir, folder))
    .filter((r): r is CachedRepo => r !== null)
    .sort((a, b) => b.size - a.size || a.id.localeCompare(b.id));
  return { cacheDir, repos };
}

/** Removes one repository (every revision, partial downloads included) from the cache. */
export function deleteCached(id: string, settings: Partial<HubSettings> = {}): { removed: boolean; bytes: number } {
  const { cacheDir } = hubSettings(settings);
  const dir = repoDir(cacheDir, parseHubId(id));
  if (path.dirname(dir) !== path.resolve(cacheDir) || !existsSync(dir)) return { removed: false, bytes: 0 };
  const bytes = readRepo(cacheDir, path.basename(dir))?.size ?? 0;
  rmSync(dir, { recursive: true, force: true });
  rmSync(path.join(cacheDir, ".locks", path.basename(dir)), { recursive: true, force: true });
  return { removed: true, bytes };
}
