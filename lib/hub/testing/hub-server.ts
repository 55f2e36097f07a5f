import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A test double for the Hugging Face hub (reached through HF_ENDPOINT): the repository info,
// tree and file (resolve) endpoints, served from fixture repositories the tests make, with the
// headers the hub sends (ETag / X-Linked-Etag, X-Repo-Commit, ranges), gated repositories, and
// faults to inject (a connection cut midway, corrupted bytes, ranges ignored). Never the product.

export interface FixtureRepo {
  type: "model" | "dataset";
  /** owner/name */
  name: string;
  files: Record<string, Buffer | string>;
  /** Which files the hub keeps in LFS (named by sha256 in caches); default: *.safetensors, *.bin, *.onnx, *.jsonl. */
  lfs?: (path: string) => boolean;
  /** A gated repository: every request needs `Authorization: Bearer <gatedToken>`. */
  gatedToken?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  range: string | null;
  authorization: string | null;
}

export interface HubFaults {
  /** Send `after` bytes of `file`'s content, then cut the connection; `times` such responses. */
  cutOff?: { file: string; after: number; times: number };
  /** Files served with one byte changed (the tree still lists the true size and hash). */
  corrupt?: string[];
  /** Answer range requests (other than the library's 0-0 probe) with the whole file. */
  ignoreRanges?: boolean;
}

interface StoredFile {
  content: Buffer;
  gitOid: string;
  sha256: string;
  lfs: boolean;
}

interface StoredRepo {
  fixture: FixtureRepo;
  commit: string;
  files: Map<string, StoredFile>;
}

export interface HubServer {
  url: string;
  requests: LoggedRequest[];
  faults: HubFaults;
  /** The commit every fixture repository's main branch points at. */
  commitOf(type: "model" | "dataset", name: string): string;
  fileOf(type: "model" | "dataset", name: string, path: string): StoredFile;
  close(): Promise<void>;
}

const gitOid = (content: Buffer) => createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
const defaultLfs = (p: string) => /\.(safetensors|bin|onnx|jsonl)$/.test(p);

function store(fixture: FixtureRepo): StoredRepo {
  const files = new Map<string, StoredFile>();
  const lfs = fixture.lfs ?? defaultLfs;
  for (const [p, data] of Object.entries(fixture.files)) {
    const content = Buffer.isBuffer(data) ? data : Buffer.from(data);
    const sha256 = createHash("sha256").update(content).digest("hex");
    const isLfs = lfs(p);
    // An LFS file's git blob is its pointer; the hub lists the pointer's id as `oid`.
    const pointer = Buffer.from(
      `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${content.length}\n`,
    );
    files.set(p, { content, sha256, lfs: isLfs, gitOid: gitOid(isLfs ? pointer : content) });
  }
  const commit = createHash("sha1")
    .update(
      [...files]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([p, f]) => `${p}:${f.gitOid}`)
        .join("\n"),
    )
    .update(fixture.type + fixture.name)
    .digest("hex");
  return { fixture, commit, files };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startHubServer(fixtures: FixtureRepo[]): Promise<HubServer> {
  const repos = new Map<string, StoredRepo>(fixtures.map((f) => [`${f.type}:${f.name}`, store(f)]));
  const requests: LoggedRequest[] = [];
  const faults: HubFaults = {};

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hub");
    requests.push({
      method: req.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      range: req.headers.range ?? null,
      authorization: req.headers.authorization ?? null,
    });
    const { api, type, name, action, rev, rest } = hubPath(url);
    const repo = repos.get(`${type}:${name}`);
    if (!repo) return json(res, 404, { error: "Repository not found" }, { "X-Error-Code": "RepoNotFound" });
    if (repo.fixture.gatedToken && req.headers.authorization !== `Bearer ${repo.fixture.gatedToken}`) {
      return json(
        res,
        401,
        {
          error: `Access to ${type} ${name} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
        },
        { "X-Error-Code": "GatedRepo" },
      );
    }
    if (rev !== "main" && rev !== "HEAD" && rev !== repo.commit)
      return json(res, 404, { error: `Invalid rev id: ${rev}` }, { "X-Error-Code": "RevisionNotFound" });
    const filePath = rest.join("/");

    if (api && action === "revision") return json(res, 200, revisionInfo(name, repo));
    if (api && action === "tree")
      return json(res, 200, treeEntries(repo, filePath, url.searchParams.get("recursive") === "true"));
    if (!api && action === "resolve") return serveFile(req, res, repo, filePath, faults);
    json(res, 404, { error: `the test hub does not serve ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const get = (type: "model" | "dataset", name: string) => {
    const repo = repos.get(`${type}:${name}`);
    if (!repo) throw new Error(`no fixture repo ${type} ${name}`);
    return repo;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    faults,
    commitOf: (type, name) => get(type, name).commit,
    fileOf: (type, name, p) => get(type, name).files.get(p)!,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** /api/{models|datasets}/{owner}/{name}/{revision|tree}/{rev}[/{path}], or [datasets/]{owner}/{name}/resolve/{rev}/{path}. */
function hubPath(url: URL) {
  const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);

  // /api/{models|datasets}/{owner}/{name}/{revision|tree}/{rev}[/{path}]
  let api = false;
  let type: "model" | "dataset" = "model";
  if (segments[0] === "api") {
    api = true;
    type = segments[1] === "datasets" ? "dataset" : "model";
    segments.splice(0, 2);
  } else if (segments[0] === "datasets") {
    type = "dataset";
    segments.shift();
  }
  const name = segments.slice(0, 2).join("/");
  const [action, rev, ...rest] = segments.slice(2);
  return { api, type, name, action, rev, rest };
}

/** The hub's answer to /api/…/revision/REV: the repo's commit and its files. */
function revisionInfo(name: string, repo: StoredRepo) {
  return {
    _id: createHash("md5").update(name).digest("hex").slice(0, 24),
    id: name,
    sha: repo.commit,
    private: false,
    gated: repo.fixture.gatedToken ? "manual" : false,
    downloads: 0,
    likes: 0,
    lastModified: "2025-03-20T00:00:00.000Z",
    siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })),
  };
}

/** The hub's listing of a folder (or, `recursive`, of everything below it): files with their LFS details, folders. */
function treeEntries(repo: StoredRepo, filePath: string, recursive: boolean): unknown[] {
  const prefix = filePath ? `${filePath}/` : "";
  const entries: unknown[] = [];
  const dirs = new Set<string>();
  for (const [p, f] of repo.files) {
    if (!p.startsWith(prefix)) continue;
    const below = p.slice(prefix.length);
    const slash = below.indexOf("/");
    if (slash >= 0) dirs.add(prefix + below.slice(0, slash));
    if (slash >= 0 && !recursive) continue;
    const pointerSize = 134;
    entries.push({
      type: "file",
      oid: f.gitOid,
      size: f.lfs ? f.content.length : f.content.length,
      path: p,
      ...(f.lfs ? { lfs: { oid: f.sha256, size: f.content.length, pointerSize } } : {}),
    });
  }
  for (const d of dirs) entries.push({ type: "directory", oid: gitOid(Buffer.from(d)), size: 0, path: d });
  return entries;
}

/** A file's bytes as the hub's resolve URL sends them: ETags, byte ranges, and the faults a test asked for. */
function serveFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  repo: StoredRepo,
  filePath: string,
  faults: HubFaults,
) {
  const file = repo.files.get(filePath);
  // The hub names the commit even when the file is absent (Python then remembers it in .no_exist/).
  if (!file)
    return json(
      res,
      404,
      { error: "Entry not found" },
      { "X-Error-Code": "EntryNotFound", "X-Repo-Commit": repo.commit },
    );
  let content = file.content;
  if (faults.corrupt?.includes(filePath)) {
    content = Buffer.from(content);
    content[content.length >> 1]! ^= 0xff;
  }
  const etag = file.lfs ? file.sha256 : file.gitOid;
  const headers: Record<string, string> = {
    ETag: `"${etag}"`,
    "X-Repo-Commit": repo.commit,
    "Accept-Ranges": "bytes",
    "Content-Type": "application/octet-stream",
    ...(file.lfs ? { "X-Linked-Etag": `"${file.sha256}"`, "X-Linked-Size": String(file.content.length) } : {}),
  };
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
  const probe = req.headers.range === "bytes=0-0";
  let start = 0;
  let end = content.length - 1;
  let status = 200;
  if (range && (probe || !faults.ignoreRanges)) {
    start = Number(range[1]);
    end = range[2] ? Math.min(Number(range[2]), content.length - 1) : content.length - 1;
    if (start >= content.length) {
      res.writeHead(416, { "Content-Range": `bytes */${content.length}` });
      return res.end();
    }
    status = 206;
    headers["Content-Range"] = `bytes ${start}-${end}/${content.length}`;
  }
  const body = content.subarray(start, end + 1);
  headers["Content-Length"] = String(body.length);
  const cut = faults.cutOff;
  if (!probe && cut && cut.file === filePath && cut.times > 0 && body.length > cut.after) {
    cut.times--;
    res.writeHead(status, headers);
    res.write(body.subarray(0, cut.after), () => setTimeout(() => res.socket?.destroy(), 20));
    return;
  }
  res.writeHead(status, headers);
  return res.end(req.method === "HEAD" ? undefined : body);
}
