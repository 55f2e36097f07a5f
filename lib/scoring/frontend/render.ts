import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../../paths";
import {
  DEFAULT_BROWSER,
  DEFAULT_PROFILE,
  type BrowserName,
  type ProfileName,
  type RenderProfile,
} from "../../colbench/render-profile";
import { defaultExecutable, requireEngine } from "./browsers";
import { resolvePlaceholderPhoto, type PlaceholderPhoto, type PlaceholderPhotoSource } from "./placeholder-photo";
import { FALLBACK_SIZE, fallbackPng } from "./png";
import { defaultRenderDir, RenderCache, renderId, unusableRender, type RenderSidecar } from "./render-cache";
import { renderIsolation, type RenderIsolation } from "./render-isolation";
import {
  settingsFor,
  type FromWorker,
  type RenderAttempt,
  type RenderReply,
  type RenderSettings,
  type RenderStatus,
  type RenderVerification,
  type ToWorker,
  type WorkerOptions,
} from "./render-protocol";

// Client of the render worker (workers/render/main.ts). Untrusted HTML is rendered only in that
// separate process, which owns the browser; this side hashes, caches and keeps the worker alive.

export { defaultChromium } from "./browsers";

export interface RenderPoolOptions {
  /** The engine: Chromium (default) or Firefox ESR, driven over WebDriver BiDi. */
  browser?: BrowserName;
  /** The render profile (window, extent): default "paper", the published scorer's screenshot. */
  profile?: ProfileName;
  /** The published placeholder photo (picsum id 48); default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins. */
  placeholderPhoto?: string | null;
  /** Asked for the photo when no path is given (the hub cache's hook; see placeholder-photo.ts). */
  placeholderPhotoSource?: PlaceholderPhotoSource;
  /** The browser binary to drive; default the engine's (browsers.ts). */
  executablePath?: string;
  /**
   * Pages rendered at once, each in a browser of its own (a lane: its own processes, so one page's
   * cost is its lane's alone). Default 3: on 2 cores a third page keeps them busy while the others
   * wait for the browser to draw a frame to capture.
   */
  concurrency?: number;
  /** true (default): <dataDir>/renders; a string: that folder; false: never read or write renders. */
  cache?: boolean | string;
  /** How long a page may load and run scripts before it is stopped and captured as it is. */
  deadlineMs?: number;
  /** How long the capture itself may take. */
  captureTimeoutMs?: number;
  /**
   * Private memory (MiB) a lane's browser, all its processes together, may hold while it renders a
   * page; a page past it is killed with its browser (status "failed"). Default 2048.
   */
  memoryLimitMb?: number;
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
  /** The profile it was rendered under (name, engine, placeholders). */
  profile: RenderProfile;
  png: Buffer;
  width: number;
  height: number;
  status: RenderStatus;
  /** Outside requests the page made that were refused. */
  aborted: number;
  blocked: string[];
  cached: boolean;
  error?: string;
  /** Set when the page was rendered again in a fresh browser: how the first attempt ended. */
  retried?: RenderAttempt;
  /** How an "ok" render was checked (by its worker, or when it was cached). */
  verified?: RenderVerification;
}

export const DEFAULT_DEADLINE_MS = 10_000;
/**
 * Lanes (a browser each) rendering at once. On 2 cores a lane waits for Chromium to draw the frame
 * it captures for much of each page; 4 lanes left 9% of the CPU idle where 3 left 14%, and rendered
 * 0.83 of the ceiling against 0.79 (bench/render.ts 200, paired runs, 2026-11-29); 6 were slower.
 */
export const DEFAULT_CONCURRENCY = 4;
/** ColBench pages are a few kB; megabytes of HTML only tie up a renderer parsing them. */
export const DEFAULT_MAX_HTML_BYTES = 8 * 1024 * 1024;

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
  /** The browser's version string, e.g. "Chrome/156.0.8078.79" or "firefox/153.7.0". */
  browserVersion = "";
  readonly browser: BrowserName;
  /** How the worker is kept off the network (reported like the Python sandbox's isolation). */
  readonly isolation: RenderIsolation;
  readonly settings: RenderSettings;
  private readonly cache: RenderCache | null;

  private constructor(
    private readonly options: RenderPoolOptions,
    private readonly photo: PlaceholderPhoto | null,
  ) {
    this.browser = options.browser ?? DEFAULT_BROWSER;
    const isolation = renderIsolation();
    // Firefox is driven over a WebSocket, so its namespace has its own loopback up (nothing else listens there).
    this.isolation =
      this.browser === "firefox" && isolation.network !== "none"
        ? {
            ...isolation,
            describe: isolation.describe.replace(
              "no interface up",
              "only its own loopback up, for the driver's WebSocket to Firefox",
            ),
          }
        : isolation;
    this.settings = { ...settingsFor(options.profile ?? DEFAULT_PROFILE, photo?.placeholders), ...options.settings };
    const cache = options.cache ?? true;
    this.cache = cache === false ? null : new RenderCache(typeof cache === "string" ? cache : defaultRenderDir());
  }

  /** Starts the worker and its browser; a missing engine fails here with the instruction to add it. */
  static async start(options: RenderPoolOptions = {}): Promise<RenderPool> {
    requireEngine(options.browser ?? DEFAULT_BROWSER, options.executablePath);
    const photo = await resolvePlaceholderPhoto(options.placeholderPhoto, options.placeholderPhotoSource);
    const pool = new RenderPool(options, photo);
    await pool.ensureWorker();
    return pool;
  }

  /** The published placeholder photo's file this pool answers placeholders with, if any. */
  get placeholderPhotoPath(): string | undefined {
    return this.photo?.path;
  }

  /** The profile this pool renders under by default. */
  get profile(): RenderProfile {
    return this.profileOf(this.settings);
  }

  private profileOf(settings: RenderSettings): RenderProfile {
    return { name: settings.profile, browser: this.browser, placeholders: settings.placeholders };
  }

  /** The id a page would get with this pool's browser and settings. */
  idFor(html: string, settings?: Partial<RenderSettings>): string {
    return renderId(html, {
      settings: { ...this.settings, ...settings },
      browser: `${this.browser}/${this.browserMajor()}`,
    });
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
    // A stored render that is not known good (another revision's, or unchecked) is rendered again and replaced.
    const hit = await cache?.usable(id);
    const profile = this.profileOf(settings);
    if (hit) {
      const { width, height, status, aborted, blocked, verified } = hit.meta;
      return {
        id,
        profile,
        png: hit.png,
        width,
        height,
        status,
        aborted,
        blocked,
        cached: true,
        ...(verified ? { verified } : {}),
      };
    }
    const maxBytes = this.options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
    let reply =
      Buffer.byteLength(html) > maxBytes
        ? failedReply(0, `the page is larger than ${maxBytes} bytes`)
        : await this.send(html, settings, opts.deadlineMs ?? this.options.deadlineMs ?? DEFAULT_DEADLINE_MS);
    // "ok" is believed only with the worker's account of how the capture was checked.
    if (reply.status === "ok" && !reply.verified)
      reply = {
        ...failedReply(reply.reqId, "the render worker did not say how it checked the capture"),
        ...(reply.retried ? { retried: reply.retried } : {}),
      };
    const png = Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength);
    const result: RenderResult = {
      id,
      profile,
      png,
      width: reply.width,
      height: reply.height,
      status: reply.status,
      aborted: reply.aborted,
      blocked: reply.blocked,
      cached: false,
      ...(reply.error ? { error: reply.error } : {}),
      ...(reply.retried ? { retried: reply.retried } : {}),
      ...(reply.verified ? { verified: reply.verified } : {}),
    };
    // Only good renders are kept: a timeout or failure may be the machine's fault, not the page's,
    // and an unchecked capture may be a neighbour's blank (put refuses anything not known good).
    if (cache && reply.status === "ok" && reply.verified) {
      const meta: RenderSidecar = {
        id,
        width: reply.width,
        height: reply.height,
        status: reply.status,
        aborted: reply.aborted,
        blocked: reply.blocked,
        browser: this.browserVersion,
        settings,
        profile,
        verified: reply.verified,
      };
      if (unusableRender(png, meta) === null) await cache.put(png, meta);
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

  private browserMajor(): string {
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
      browser: this.browser,
      executablePath: this.options.executablePath ?? defaultExecutable(this.browser),
      ...(this.photo ? { placeholderPhoto: this.photo.path } : {}),
      // Firefox is driven over a WebSocket on the namespace's own loopback (Chromium over a pipe).
      loopbackUp: this.browser === "firefox" && this.isolation.network !== "none",
      concurrency: this.options.concurrency ?? DEFAULT_CONCURRENCY,
      subsetTailwind: this.options.subsetTailwind ?? true,
      captureTimeoutMs: this.options.captureTimeoutMs ?? 15_000,
      ...(this.options.memoryLimitMb ? { memoryLimitBytes: this.options.memoryLimitMb * 2 ** 20 } : {}),
      profileRoot,
    };
    const entry = this.options.workerPath ?? path.join(projectRoot, "workers", "render", "main.ts");
    const tsx = pathToFileURL(createRequire(path.join(projectRoot, "package.json")).resolve("tsx")).href;
    // The worker (and so Chromium) starts inside its own network namespace where the machine allows it.
    const [command, ...prefix] = [...this.isolation.wrap, process.execPath];
    const worker = spawn(command, [...prefix, "--import", tsx, entry, JSON.stringify(workerOptions)], {
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
        // A browser outliving a killed worker may still be writing there for a moment.
        try {
          rmSync(profileRoot, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        } catch {
          setTimeout(() => {
            try {
              rmSync(profileRoot, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
            } catch {
              // left in the temporary folder
            }
          }, 2_000).unref();
        }
        if (!ready) {
          reject(
            new Error(
              `render worker exited (${signal ?? code}) before it was ready: ${this.stderrTail.trim().slice(-800)}`,
            ),
          );
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
  return {
    type: "result",
    reqId,
    status: "failed",
    png: fallbackPng(),
    ...FALLBACK_SIZE,
    aborted: 0,
    blocked: [],
    error,
  };
}
