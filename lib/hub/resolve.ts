import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { datasetInfo, HubApiError, listFiles, modelInfo } from "@huggingface/hub";
import {
  cachedCommit,
  inSnapshot,
  knownMissing,
  linkBlob,
  markMissing,
  repoDir,
  snapshotDir,
  writeRef,
} from "./cache-layout";
import { downloadBlob, type FileProgress, type TreeFile } from "./download";
import { HubError } from "./errors";
import { parseRef, repoLabel, type HubRepo, type RepoType } from "./ref";
import { hubSettings, type HubSettings } from "./settings";

// The one way the studio turns a model or dataset reference into a local folder: a folder is
// used as it is; a hub id is looked up in the cache Python's huggingface_hub shares (no request
// when everything asked for is there), else the files the consumer names, and only those, are
// fetched from HF_ENDPOINT into that cache.

export type { FileProgress } from "./download";

export interface ResolveOptions {
  /** Files the consumer reads; each must exist in the repository. */
  files: string[];
  /** Files read when present (tokenizer extras, say); their absence is remembered in .no_exist/. */
  optional?: string[];
  /** What a bare owner/name is: a model unless told otherwise. */
  type?: RepoType;
  settings?: Partial<HubSettings>;
  onProgress?: (progress: FileProgress) => void;
  signal?: AbortSignal;
  /** Attempts after a cut-off connection, each resuming with a range (default 3). */
  retries?: number;
  /** The fetch every request goes through (tests count requests with it). */
  fetch?: typeof fetch;
}

export interface Resolved {
  folder: string;
  /** folder: given as one; cache: found with no request; hub: asked the hub (and fetched what was missing). */
  source: "folder" | "cache" | "hub";
  /** The hub repository (`owner/name` or `datasets/owner/name`), when it came from one. */
  repo?: string;
  revision?: string;
  commit?: string;
  /** The files asked for that exist, relative to `folder`. */
  files: string[];
  /** Files fetched by this call. */
  downloaded: string[];
}

/** A model (or, with type "dataset" or a datasets/ prefix, a dataset) as a local folder. */
export async function resolveModel(ref: string, options: ResolveOptions): Promise<Resolved> {
  const parsed = parseRef(ref, options.type);
  const wanted = [...options.files, ...(options.optional ?? [])];
  if (parsed.kind === "folder") {
    if (!existsSync(parsed.path) || !statSync(parsed.path).isDirectory())
      throw new HubError("folder", `${parsed.path}: no such folder`);
    const missing = options.files.filter((f) => !existsSync(path.join(parsed.path, f)));
    if (missing.length) throw new HubError("folder", `${parsed.path} lacks ${missing.join(", ")}`);
    return {
      folder: parsed.path,
      source: "folder",
      files: wanted.filter((f) => existsSync(path.join(parsed.path, f))),
      downloaded: [],
    };
  }
  return resolveHub(parsed, options);
}

/** A dataset repository's files as a local folder; `ref` as for resolveModel, datasets/ implied. */
export function resolveDataset(ref: string, options: Omit<ResolveOptions, "type">): Promise<Resolved> {
  return resolveModel(ref, { ...options, type: "dataset" });
}

/** What the cache lacks of a snapshot: required files absent, optional ones neither present nor known absent. */
function lacking(dir: string, commit: string, options: ResolveOptions): string[] {
  return [
    ...options.files.filter((f) => !inSnapshot(dir, commit, f)),
    ...(options.optional ?? []).filter((f) => !inSnapshot(dir, commit, f) && !knownMissing(dir, commit, f)),
  ];
}

function cachedResult(
  repo: HubRepo,
  dir: string,
  commit: string,
  options: ResolveOptions,
  source: "cache" | "hub",
  downloaded: string[],
): Resolved {
  const wanted = [...options.files, ...(options.optional ?? [])];
  return {
    folder: snapshotDir(dir, commit),
    source,
    repo: repoLabel(repo),
    revision: repo.revision,
    commit,
    files: wanted.filter((f) => inSnapshot(dir, commit, f)),
    downloaded,
  };
}

/** The fetch the library calls, remembering the hub's error code (GatedRepo, RevisionNotFound…). */
function observed(base: typeof fetch, signal?: AbortSignal): { fetch: typeof fetch; errorCode: () => string | null } {
  let code: string | null = null;
  return {
    fetch: async (input, init) => {
      const response = await base(input, signal ? { ...init, signal } : init);
      if (!response.ok) code = response.headers.get("x-error-code");
      return response;
    },
    errorCode: () => code,
  };
}

async function resolveHub(
  repo: HubRepo,
  options: ResolveOptions,
  plan?: (pending: TreeFile[]) => void,
): Promise<Resolved> {
  const settings = hubSettings(options.settings);
  const label = repoLabel(repo);
  const dir = repoDir(settings.cacheDir, repo);
  const known = cachedCommit(dir, repo.revision);
  const lacks = known ? lacking(dir, known, options) : [...options.files, ...(options.optional ?? [])];
  if (known && lacks.length === 0) return cachedResult(repo, dir, known, options, "cache", []);
  if (settings.offline) {
    const required = lacks.filter((f) => options.files.includes(f));
    const missing = required.length ? required : lacks;
    throw new HubError(
      "offline-missing",
      `HF_HUB_OFFLINE is set and the Hugging Face cache (${settings.cacheDir}) lacks ${label}@${repo.revision}` +
        (known
          ? `: ${missing.join(", ")} (snapshot ${known.slice(0, 10)})`
          : ` (${missing.join(", ")}; no snapshot of that revision)`) +
        `; unset HF_HUB_OFFLINE to download, or point HF_HUB_CACHE or HF_HOME at a cache that has it`,
    );
  }

  const hub = observed(options.fetch ?? fetch, options.signal);
  const common = { hubUrl: settings.endpoint, accessToken: settings.token, fetch: hub.fetch };
  const ask = async <T>(what: () => Promise<T>): Promise<T> => {
    try {
      return await what();
    } catch (error) {
      throw explain(error, repo, settings, hub.errorCode());
    }
  };

  const info = await ask(() =>
    repo.type === "dataset"
      ? datasetInfo({ ...common, name: repo.name, revision: repo.revision, additionalFields: ["sha"] })
      : modelInfo({ ...common, name: repo.name, revision: repo.revision, additionalFields: ["sha"] }),
  );
  const commit = (info as { sha?: string }).sha;
  if (!commit) throw new HubError("unreachable", `${settings.endpoint} gave no commit for ${label}@${repo.revision}`);
  const stillLacking = lacking(dir, commit, options);
  if (stillLacking.length === 0) {
    writeRef(dir, repo.revision, commit);
    return cachedResult(repo, dir, commit, options, "hub", []);
  }

  const tree = new Map<string, TreeFile>();
  await ask(async () => {
    for await (const entry of listFiles({
      ...common,
      repo: { type: repo.type, name: repo.name },
      revision: commit,
      recursive: true,
    })) {
      if (entry.type !== "file") continue;
      tree.set(entry.path, {
        path: entry.path,
        size: entry.lfs?.size ?? entry.size,
        etag: entry.lfs?.oid ?? entry.oid ?? "",
        sha256: entry.lfs?.oid,
        gitOid: entry.lfs ? undefined : entry.oid,
      });
    }
  });
  const absent = options.files.filter((f) => !tree.has(f));
  if (absent.length) {
    const has = [...tree.keys()].slice(0, 12).join(", ");
    throw new HubError(
      "missing-file",
      `${label}@${repo.revision} has no ${absent.join(", ")} (it has ${has}${tree.size > 12 ? ", …" : ""})`,
    );
  }

  if (plan) {
    plan(stillLacking.map((f) => tree.get(f)).filter((f): f is TreeFile => f !== undefined));
    return cachedResult(repo, dir, commit, options, "hub", []);
  }
  const downloaded: string[] = [];
  for (const file of stillLacking) {
    const entry = tree.get(file);
    if (!entry) {
      markMissing(dir, commit, file);
      continue;
    }
    if (!entry.etag) throw new HubError("integrity", `${settings.endpoint} listed ${file} of ${label} without a hash`);
    await ask(() =>
      once(path.join(dir, "blobs", entry.etag), () =>
        downloadBlob(entry, {
          repo,
          commit,
          dir,
          endpoint: settings.endpoint,
          token: settings.token,
          fetch: hub.fetch,
          onProgress: options.onProgress,
          signal: options.signal,
          retries: options.retries,
        }),
      ),
    );
    linkBlob(dir, commit, file, entry.etag);
    downloaded.push(file);
  }
  writeRef(dir, repo.revision, commit);
  return cachedResult(repo, dir, commit, options, "hub", downloaded);
}

export type Availability =
  | { state: "folder" | "cached"; folder: string }
  | { state: "fetchable"; repo: string; commit: string; bytes: number; files: string[] };

/**
 * Whether a reference could be resolved now, without fetching: a folder or a complete cache entry
 * (no request), or what the hub would send (two small requests, cut off after `timeoutMs`).
 * Throws the HubError resolveModel would throw.
 */
export async function probeModel(
  ref: string,
  options: Pick<ResolveOptions, "files" | "optional" | "type" | "settings" | "fetch"> & { timeoutMs?: number },
): Promise<Availability> {
  const parsed = parseRef(ref, options.type);
  if (parsed.kind === "folder") return { state: "folder", folder: (await resolveModel(ref, options)).folder };
  const settings = hubSettings(options.settings);
  try {
    const cached = await resolveHub(parsed, { ...options, settings: { ...settings, offline: true } });
    return { state: "cached", folder: cached.folder };
  } catch (error) {
    if (settings.offline || !(error instanceof HubError && error.code === "offline-missing")) throw error;
  }
  let pending: TreeFile[] = [];
  const resolved = await resolveHub(
    parsed,
    { ...options, settings, signal: AbortSignal.timeout(options.timeoutMs ?? 5000) },
    (p) => (pending = p),
  );
  if (!pending.length) return { state: "cached", folder: resolved.folder };
  return {
    state: "fetchable",
    repo: resolved.repo!,
    commit: resolved.commit!,
    bytes: pending.reduce((n, f) => n + f.size, 0),
    files: pending.map((f) => f.path),
  };
}

// Two resolves of one file in this process share its download (both would append to one .incomplete).
const inFlight = new Map<string, Promise<void>>();
function once(key: string, work: () => Promise<void>): Promise<void> {
  let pending = inFlight.get(key);
  if (!pending) {
    pending = work().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** Turns the library's and the network's errors into one actionable message. */
function explain(error: unknown, repo: HubRepo, settings: HubSettings, errorCode: string | null): Error {
  if (error instanceof HubError) return error;
  const label = repoLabel(repo);
  const page = `${settings.endpoint}/${label}`;
  if (error instanceof HubApiError) {
    const status = error.statusCode;
    if (status === 401 || status === 403 || errorCode === "GatedRepo") {
      const why = settings.token ? "the token in HF_TOKEN was refused for it" : "no HF_TOKEN is set";
      return new HubError(
        "gated",
        `${label} is gated or private (HTTP ${status} from ${settings.endpoint}; ${why}): accept its terms at ${page} while signed in, then set HF_TOKEN to an access token of that account (https://huggingface.co/settings/tokens)`,
      );
    }
    if (status === 404) {
      if (errorCode === "RevisionNotFound")
        return new HubError("not-found", `${label} has no revision "${repo.revision}" (${page})`);
      return new HubError(
        "not-found",
        `no repository ${label} at ${settings.endpoint}${settings.token ? "" : " (if it is private, set HF_TOKEN)"}`,
      );
    }
    return new HubError("unreachable", `${settings.endpoint} answered HTTP ${status} for ${label}: ${error.message}`);
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return new HubError(
    "unreachable",
    `cannot reach ${settings.endpoint} for ${label} (${detail}); set HF_HUB_OFFLINE=1 to use only the cache (${settings.cacheDir}), or HF_ENDPOINT to use a mirror`,
  );
}
