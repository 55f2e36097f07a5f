import { createHash, type Hash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { downloadFile } from "@huggingface/hub";
import { blobPath } from "./cache-layout";
import { HubError } from "./errors";
import { repoLabel, type HubRepo } from "./ref";

// One file of a repository into blobs/<etag>: written to blobs/<etag>.incomplete (resumed with an
// HTTP range where the server honours one), checked against the size and hash the hub's tree
// reported, and only then renamed into place, so no later resolve can read a partial or wrong file.

/** A file as the hub's tree describes it. */
export interface TreeFile {
  path: string;
  size: number;
  /** The blob's name in the cache: the LFS sha256, else the git blob id (as Python names it). */
  etag: string;
  /** For LFS files: the sha256 of the content. Otherwise the git blob sha1 is checked. */
  sha256?: string;
  gitOid?: string;
}

export interface FileProgress {
  file: string;
  /** Bytes of the file on disk so far, a resumed part included. */
  received: number;
  total: number;
  /** Where this attempt started (non-zero when a cut-off download was resumed). */
  resumedFrom: number;
  done: boolean;
}

export interface DownloadContext {
  repo: HubRepo;
  commit: string;
  dir: string;
  endpoint: string;
  token?: string;
  fetch: typeof fetch;
  onProgress?: (progress: FileProgress) => void;
  signal?: AbortSignal;
  /** Attempts after a cut-off connection, each resuming where the last stopped. */
  retries?: number;
}

function newHash(file: TreeFile): Hash {
  if (file.sha256) return createHash("sha256");
  // git's blob id: sha1 of "blob <size>\0" and the content.
  return createHash("sha1").update(`blob ${file.size}\0`);
}

async function hashExisting(hash: Hash, file: string): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

/** Fetches a file's blob unless the cache has it; resolves once blobs/<etag> is complete and checked. */
export async function downloadBlob(file: TreeFile, context: DownloadContext): Promise<void> {
  const blob = blobPath(context.dir, file.etag);
  if (existsSync(blob)) return;
  mkdirSync(path.dirname(blob), { recursive: true });
  const retries = context.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    try {
      await attemptDownload(file, blob, context);
      return;
    } catch (error) {
      const retryable =
        error instanceof HubError
          ? error.code === "interrupted"
          : !(context.signal?.aborted ?? false) && isNetworkError(error);
      if (!retryable || attempt >= retries) {
        if (error instanceof HubError) throw error;
        const have = existsSync(`${blob}.incomplete`) ? statSync(`${blob}.incomplete`).size : 0;
        throw new HubError(
          "interrupted",
          `${file.path} of ${repoLabel(context.repo)}: download stopped at ${have} of ${file.size} bytes (${(error as Error).message}); run again to resume it`,
        );
      }
    }
  }
}

function isNetworkError(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause;
  // undici's "fetch failed" names the socket's trouble in its cause: an Error, or a plain record with a code.
  const said =
    cause instanceof Error
      ? `${cause.name}: ${cause.message}`
      : typeof cause === "string"
        ? cause
        : JSON.stringify(cause);
  const message = `${(error as Error)?.message ?? ""} ${said ?? ""}`;
  return /terminated|socket|ECONNRESET|EPIPE|other side closed|fetch failed|network|aborted/i.test(message);
}

async function attemptDownload(file: TreeFile, blob: string, context: DownloadContext): Promise<void> {
  const incomplete = `${blob}.incomplete`;
  let have = existsSync(incomplete) ? statSync(incomplete).size : 0;
  if (have > file.size) {
    rmSync(incomplete);
    have = 0;
  }
  let hash = newHash(file);
  if (have > 0) await hashExisting(hash, incomplete);
  let start = have;
  const report = (done: boolean) =>
    context.onProgress?.({ file: file.path, received: have, total: file.size, resumedFrom: start, done });

  if (have < file.size) {
    // The library's fetch hook sees the content response: its status (was the range honoured?) and
    // its bytes as they arrive, which is the file's progress.
    let status = 0;
    let lastReport = 0;
    const hooked: typeof fetch = async (input, init) => {
      const response = await context.fetch(input, { ...init, signal: context.signal });
      if (new Headers(init?.headers).get("range") === "bytes=0-0" || !response.ok || !response.body) return response;
      status = response.status;
      let received = status === 206 ? start : 0;
      const counted = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            received += chunk.byteLength;
            if (Date.now() - lastReport > 100) {
              lastReport = Date.now();
              context.onProgress?.({
                file: file.path,
                received,
                total: file.size,
                resumedFrom: status === 206 ? start : 0,
                done: false,
              });
            }
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    const remote = await downloadFile({
      repo: { type: context.repo.type, name: context.repo.name },
      path: file.path,
      revision: context.commit,
      hubUrl: context.endpoint,
      accessToken: context.token,
      fetch: hooked,
      // Plain HTTP from the resolve endpoint (what Python does without hf_xet): ranges work there.
      xet: false,
    });
    if (!remote)
      throw new HubError("missing-file", `${file.path} is not in ${repoLabel(context.repo)} at ${context.commit}`);
    const reader = (have > 0 ? remote.slice(have) : remote).stream().getReader();
    let handle = await open(incomplete, "a");
    let first = true;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (first && start > 0 && status === 200) {
          // The server sent the whole file instead of the range: start over from byte 0.
          await handle.close();
          handle = await open(incomplete, "w");
          hash = newHash(file);
          have = start = 0;
        }
        first = false;
        if (done) break;
        await handle.write(value);
        hash.update(value);
        have += value.byteLength;
      }
    } finally {
      await handle.close().catch(() => {});
    }
  }
  if (have < file.size) {
    throw new HubError(
      "interrupted",
      `${file.path} of ${repoLabel(context.repo)}: the connection ended at ${have} of ${file.size} bytes`,
    );
  }
  const digest = hash.digest("hex");
  const expected = file.sha256 ?? file.gitOid;
  if (have !== file.size || digest !== expected) {
    rmSync(incomplete, { force: true });
    throw new HubError(
      "integrity",
      `${file.path} of ${repoLabel(context.repo)}@${context.commit.slice(0, 10)} is corrupt: got ${have} bytes with ${file.sha256 ? "sha256" : "git sha1"} ${digest}, the hub lists ${file.size} bytes with ${expected}; the download was removed and nothing was cached`,
    );
  }
  renameSync(incomplete, blob);
  report(true);
}
