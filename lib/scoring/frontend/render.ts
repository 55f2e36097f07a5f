import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../../paths";
import { FALLBACK_SIZE, fallbackPng } from "./png";
import { defaultRenderDir, RenderCache, renderId } from "./render-cache";
import { renderIsolation, type RenderIsolation } from "./render-isolation";
import {
  DEFAULT_RENDER_SETTINGS,
  type FromWorker,
  type RenderReply,
  type RenderSettings,
  type RenderStatus,
  type ToWorker,
  type WorkerOptions,
} from "./render-protocol";

// Client of the render worker (workers/render/main.ts). Untrusted HTML is rendered only in that
// separate process, which owns Chromium; this side hashes, caches and keeps the worker alive.

export interface RenderPoolOptions {
  /** Chromium to drive; default defaultChromium(). */
  executablePath?: string;
  /**
   * Pages rendered at once, each in its own browser context. Default 3: on 2 cores a third page
   * keeps them busy while the others wait for Chromium to draw a frame to capture.
   */
  concurrency?: number;
  /** true (default): <dataDir>/renders; a string: that folder; false: never read or write renders. */
  cache?: boolean | string;
  /** How long a page may load and run scripts before it is stopped and captured as it is. */
  deadlineMs?: number;
  /** How long the capture itself may take. */
  captureTimeoutMs?: number;
  settings?: Partial<RenderSettings>;
  /** Serve static pages only the Tailwind rules they can match (same pixels, faster). Default true. */
  subsetTailwind?: boolean;
  /** Pages larger than this are not rendered at all (the fallback image, status "failed"). Default 8 MiB. */
  maxHtmlBytes?: number;
  /** The worker's entry point; default workers/render/main.ts of this checkout. */
  workerPath?: string;
}

export interface RenderOptions {
  deadlineMs?: number;
  settings?: Partial<RenderSettings>;
  /** false: neither read nor write the cache for this page. */
  cache?: boolean;
}

export interface RenderResult {
  /** Content address of the render: sha256 of the HTML and the settings. */
  id: string;
  png: Buffer;
  width: number;
  height: number;
  status: RenderStatus;
  /** Outside requests the page made that were refused. */
  aborted: number;
  blocked: string[];
  cached: boolean;
  error?: string;
}

export const DEFAULT_DEADLINE_MS = 10_000;
export const DEFAULT_CONCURRENCY = 3;
/** ColBench pages are a few kB; megabytes of HTML only tie up a renderer parsing them. */
export const DEFAULT_MAX_HTML_BYTES = 8 * 1024 * 1024;

/**
 * $COLBENCH_CHROMIUM, else Debian's /usr/bin/chromium. Debian's chromium-headless-shell also
 * works (about a third less CPU per page) but is not the default: after some pages its renderer
 * picks a different monospace fallback font than on a fresh start, so its pixels depend on
 * what it rendered before.
 */
export function defaultChromium(): string {
  return process.env.COLBENCH_CHROMIUM || "/usr/bin/chromium";
}

interface Pending {
  message: ToWorker & { type: "render" };
  attempts: number;
  resolve(reply: RenderReply): void;
}

export class RenderPool {
  private worker: ChildProcess | null = null;
  private starting: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private stderrTail = "";
  /** Chromium's version string, e.g. "Chrome/156.0.8078.79". */
  browserVersion = "";
  /** How the worker is kept off the network (reported like the Python sandbox's isolation). */
  readonly isolation: RenderIsolation = renderIsolation();
  readonly settings: RenderSettings;
  private readonly cache: RenderCache | null;

  private constructor(private readonly options: RenderPoolOptions) {
    this.settings = { ...DEFAULT_RENDER_SETTINGS, ...options.settings };
    const cache = options.cache ?? true;
    this.cache = cache === false ? null : new RenderCache(typeof cache === "string" ? cache : defaultRenderDir());
  }

  static async start(options: RenderPoolOptions = {}): Promise<RenderPool> {
    const pool = new RenderPool(options);
    await pool.ensureWorker();
    return pool;
  }

  /** The id a page would get with this pool's browser and settings. */
  idFor(html: string, settings?: Partial<RenderSettings>): string {
    return renderId(html, { settings: { ...this.settings, ...settings }, chromium: this.chromiumMajor() });
  }

  /** The worker process's id (for diagnostics such as CPU accounting), while one runs. */
  get workerPid(): number | undefined {
    return this.worker?.pid;
  }

  get cacheDir(): string | null {
    return this.cache?.dir ?? null;
  }

  async render(html: string, opts: RenderOptions = {}): Promise<RenderResult> {
    const settings = { ...this.settings, ...opts.settings };
    const id = this.idFor(html, settings);
    const cache = opts.cache === false ? null : this.cache;
    const hit = await cache?.get(id);
    if (hit) {
      const { width, height, status, aborted, blocked } = hit.meta;
      return { id, png: hit.png, width, height, status, aborted, blocked, cached: true };
    }
    const maxBytes = this.options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
    const reply =
      Buffer.byteLength(html) > maxBytes
        ? failedReply(0, `the page is larger than ${maxBytes} bytes`)
        : await this.send(html, settings, opts.deadlineMs ?? this.options.deadlineMs ?? DEFAULT_DEADLINE_MS);
    const png = Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength);
    const result: RenderResult = {
      id,
      png,
      width: reply.width,
      height: reply.height,
      status: reply.status,
      aborted: reply.aborted,
      blocked: reply.blocked,
      cached: false,
      ...(reply.error ? { error: reply.error } : {}),
    };
    // Only good renders are kept: a timeout or failure may be the machine's fault, not the page's.
    if (cache && reply.status === "ok") {
      await cache.put(png, {
        id,
        width: reply.width,
        height: reply.height,
        status: reply.status,
        aborted: reply.aborted,
        blocked: reply.blocked,
        browser: this.browserVersion,
        settings,
      });
    }
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    for (const p of this.pending.values()) p.resolve(failedReply(p.message.reqId, "the render pool closed"));
    this.pending.clear();
    if (!worker || worker.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    if (worker.connected) worker.send({ type: "close" } satisfies ToWorker);
    const timer = setTimeout(() => worker.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private chromiumMajor(): string {
    return /\/(\d+)\./.exec(this.browserVersion)?.[1] ?? this.browserVersion;
  }

  private send(html: string, settings: RenderSettings, deadlineMs: number): Promise<RenderReply> {
    if (this.closed) return Promise.reject(new Error("the render pool is closed"));
    return new Promise((resolve) => {
      const message = { type: "render" as const, reqId: this.nextId++, html, settings, deadlineMs };
      const pending: Pending = { message, attempts: 0, resolve };
      this.pending.set(message.reqId, pending);
      this.dispatch(pending);
    });
  }

  private dispatch(p: Pending): void {
    this.ensureWorker().then(
      () => this.worker?.send(p.message),
      (error: unknown) => {
        this.pending.delete(p.message.reqId);
        p.resolve(failedReply(p.message.reqId, String(error)));
      },
    );
  }

  private ensureWorker(): Promise<void> {
    if (this.worker?.connected) return Promise.resolve();
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private spawn(): Promise<void> {
    // Made here and removed here when the worker exits: a killed worker cannot clean up after itself.
    const profileRoot = mkdtempSync(path.join(os.tmpdir(), "colbench-render-"));
    const workerOptions: WorkerOptions = {
      executablePath: this.options.executablePath ?? defaultChromium(),
      concurrency: this.options.concurrency ?? DEFAULT_CONCURRENCY,
      subsetTailwind: this.options.subsetTailwind ?? true,
      captureTimeoutMs: this.options.captureTimeoutMs ?? 15_000,
      profileRoot,
    };
    const entry = this.options.workerPath ?? path.join(projectRoot, "workers", "render", "main.ts");
    const tsx = pathToFileURL(createRequire(path.join(projectRoot, "package.json")).resolve("tsx")).href;
    // The worker (and so Chromium) starts inside its own network namespace where the machine allows it.
    const [command, ...prefix] = [...this.isolation.wrap, process.execPath];
    const worker = spawn(command!, [...prefix, "--import", tsx, entry, JSON.stringify(workerOptions)], {
      serialization: "advanced", // PNGs travel as bytes, not JSON arrays
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    // Chromium's chatter stays out of our stdout (CLI output is parsed); kept for error messages.
    const keep = (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4_000);
    };
    worker.stdout?.on("data", keep);
    worker.stderr?.on("data", keep);
    this.worker = worker;

    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          ready = true;
          this.browserVersion = message.browserVersion;
          resolve();
        } else if (message.type === "fatal") {
          reject(new Error(`render worker could not start: ${message.error}`));
        } else {
          const p = this.pending.get(message.reqId);
          this.pending.delete(message.reqId);
          p?.resolve(message);
        }
      });
      worker.on("exit", (code, signal) => {
        if (this.worker === worker) this.worker = null;
        rmSync(profileRoot, { recursive: true, force: true });
        if (!ready) {
          reject(new Error(`render worker exited (${signal ?? code}) before it was ready: ${this.stderrTail.trim().slice(-800)}`));
          return;
        }
        // Jobs in flight in a dead worker get one more try in a fresh one.
        for (const p of [...this.pending.values()]) {
          if (this.closed || p.attempts++ >= 1) {
            this.pending.delete(p.message.reqId);
            p.resolve(failedReply(p.message.reqId, `render worker exited (${signal ?? code})`));
          } else this.dispatch(p);
        }
      });
    });
  }
}

function failedReply(reqId: number, error: string): RenderReply {
  return { type: "result", reqId, status: "failed", png: fallbackPng(), ...FALLBACK_SIZE, aborted: 0, blocked: [], error };
}
