import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, {
  type Browser,
  type BrowserContext,
  type HTTPRequest,
  type JSHandle,
  type Page,
} from "puppeteer-core";
import type { RenderSettings, RenderStatus } from "../../lib/scoring/frontend/render-protocol";
import { FALLBACK_SIZE, fallbackPng, pngSize } from "../../lib/scoring/frontend/png";
import { mayChangeAfterParse } from "./css-subset";
import { killBrowser, SlotPool, type Lane } from "./slot-pool";
import { clipExtent } from "./extent";
import { Responder, type Reply, type ResponderOptions } from "./responder";
import type { SlotResult } from "./slot";
import {
  DOCUMENT_HAS_CONTENT,
  DOCUMENT_HAS_REFRESH,
  mayNavigateLater,
  navigatedAway,
  promisesContent,
  verifyCapture,
} from "./verify";

// Firefox ESR as the second engine, driven by puppeteer-core over WebDriver BiDi (no geckodriver,
// no Selenium). The published scorer's screenshots come from Firefox, so this is the engine that
// reproduces them; its capture, documentElement.scrollWidth x scrollHeight with origin
// "document", is what Marionette's full screenshot returns (measured pixel-identical).
// Same rules as the Chromium pool: every request answered by the Responder (Tailwind from the
// package, placeholders drawn or the supplied photo, everything else refused), a proxy to nowhere
// behind that, no popups, a deadline, and the worker's own network namespace around it all.

/** Firefox preferences for pages off the network; none of them changes how a page is drawn. */
export const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  // Whatever interception lets through goes to a proxy that is not there, loopback included.
  "network.proxy.type": 1,
  "network.proxy.http": "127.0.0.1",
  "network.proxy.http_port": 9,
  "network.proxy.ssl": "127.0.0.1",
  "network.proxy.ssl_port": 9,
  "network.proxy.socks": "127.0.0.1",
  "network.proxy.socks_port": 9,
  "network.proxy.share_proxy_settings": true,
  "network.proxy.no_proxies_on": "",
  "network.proxy.allow_hijacking_localhost": true,
  "network.proxy.socks_remote_dns": true,
  // No WebRTC, prefetching, pings, speculative connections, service workers or popups.
  "media.peerconnection.enabled": false,
  "network.prefetch-next": false,
  "network.dns.disablePrefetch": true,
  "network.predictor.enabled": false,
  "network.http.speculative-parallel-limit": 0,
  "browser.send_pings": false,
  "dom.serviceWorkers.enabled": false,
  "dom.disable_open_during_load": true,
  "dom.popup_maximum": 0,
  "browser.link.open_newwindow": 1,
  "browser.link.open_newwindow.restriction": 0,
  // A script that never yields is stopped without a prompt (BiDi has no way to interrupt one).
  "dom.max_script_run_time": 5,
  "dom.max_script_run_time.require_critical_input": false,
  "dom.always_stop_slow_scripts": true,
};

const MAX_USES = 250;
const MAY_ANIMATE = /animat|marquee|keyframes|data:image\/(gif|webp|png)/i;
const CLOSE_TIMEOUT_MS = 5_000;
const CHECK_TIMEOUT_MS = 3_000;

interface DocumentFacts {
  content: boolean;
  refresh: boolean;
  extent: [number, number] | null;
  url: string;
}

/** The written document's readyState, or "navigated" once the frame shows another document. */
const READY_STATE = (d: unknown) => (d === document ? document.readyState : "navigated");

/** The checks of a capture (verify.ts), run on the handle of the document the page was written into. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the page runs it: a function built from verify.ts's own source strings, never from input
const CHECK_DOCUMENT = new Function(
  "d",
  `if (d !== document) return null; const de = d.documentElement; return { content: ${DOCUMENT_HAS_CONTENT}, refresh: ${DOCUMENT_HAS_REFRESH}, extent: de ? [de.scrollWidth, de.scrollHeight] : null, url: location.href };`,
) as (d: unknown) => DocumentFacts | null;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

export interface FirefoxPoolOptions extends ResponderOptions {
  executablePath: string;
  concurrency: number;
  captureTimeoutMs: number;
  /** What a lane's Firefox may hold in private memory while it renders a page; default DEFAULT_FIREFOX_MEMORY_LIMIT_BYTES. */
  memoryLimitBytes?: number;
  /** Where Firefox profiles are made; default the system's temporary folder. */
  profileRoot?: string;
}

/** One page in its own user context (BiDi's browser context) of its lane's Firefox, reused until something unusual happens. */
class FirefoxSlot {
  spent = false;
  private uses = 0;
  private viewport = "";
  private readonly pending = new Set<HTTPRequest>();
  private onIdle: (() => void) | null = null;
  private readonly responder: Responder;
  /** The document the current page was written into, as it stood right after the write. */
  private written: JSHandle | null = null;

  private constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly options: FirefoxPoolOptions,
  ) {
    this.responder = new Responder(options);
    page.on("request", (request) => this.answer(request));
    const done = (request: HTTPRequest) => {
      if (this.pending.delete(request) && this.pending.size === 0) this.idle();
    };
    page.on("requestfinished", done);
    page.on("requestfailed", done);
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  }

  static async open(browser: Browser, options: FirefoxPoolOptions): Promise<FirefoxSlot> {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.setRequestInterception(true);
      return new FirefoxSlot(context, page, options);
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  private answer(request: HTTPRequest): void {
    if (request.isInterceptResolutionHandled()) return;
    const frame = request.frame();
    const isMainFrame = !frame || frame === this.page.mainFrame();
    // Answered 204 or not, a page that navigates may try again later, into whatever page is written next.
    if (request.isNavigationRequest() && isMainFrame) this.spent = true;
    const reply = this.responder.reply({
      url: request.url(),
      isNavigation: request.isNavigationRequest(),
      isMainFrame,
    });
    // Navigations are answered 204 (the page stays), which ends no request Firefox reports: only subresources are waited for.
    if (!request.isNavigationRequest() && !/^(data|blob|about):/i.test(request.url())) this.pending.add(request);
    void Promise.resolve(reply).then((r: Reply) => {
      const sent =
        r.kind === "continue"
          ? request.continue()
          : r.kind === "abort"
            ? request.abort("blockedbyclient")
            : request.respond({ status: r.status, headers: r.headers, body: r.body });
      return sent.catch(() => {});
    });
  }

  private idle(): void {
    const f = this.onIdle;
    this.onIdle = null;
    f?.();
  }

  async render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult> {
    const started = Date.now();
    this.uses++;
    if (this.uses >= MAX_USES || mayChangeAfterParse(html) || mayNavigateLater(html) || MAY_ANIMATE.test(html))
      this.spent = true;
    const viewport = `${settings.width}x${settings.viewportHeight}`;
    if (viewport !== this.viewport) {
      await this.page.setViewport({ width: settings.width, height: settings.viewportHeight, deviceScaleFactor: 1 });
      this.viewport = viewport;
    }
    this.responder.begin(html);
    this.pending.clear();

    let status: RenderStatus = "ok";
    const loaded = await this.load(html, deadlineMs);
    if (loaded === "navigated") {
      this.spent = true;
      return this.failed("failed", navigatedAway("while it loaded"));
    }
    let why = "";
    if (loaded === "deadline" || (await this.settle(started + deadlineMs)) === "deadline") {
      status = "timeout";
      why = `the page was still loading at its ${deadlineMs} ms deadline; it was captured as it stood`;
      this.spent = true;
    }
    const budget = Math.max(deadlineMs - (Date.now() - started), 1_000);
    const shot = await within(
      this.capture(settings),
      Math.max(budget, this.options.captureTimeoutMs),
      "capturing the page",
    ).catch((error: unknown) => error as Error);
    if (shot instanceof Error) {
      this.spent = true;
      return this.failed(status === "ok" ? "failed" : status, shot.message);
    }
    const verdict = await this.check(shot, settings, html);
    // A page captured as it stood at its deadline is not held to its extent or content, but a
    // capture of another document is no capture of it at all.
    if ("why" in verdict && (status === "ok" || verdict.navigated)) {
      this.spent = true;
      return this.failed("failed", status === "ok" ? verdict.why : `${why}; ${verdict.why}`);
    }
    if (status !== "ok" || !("verified" in verdict))
      return {
        status,
        ...shot,
        aborted: this.responder.aborted,
        blocked: this.responder.blocked,
        ...(why ? { error: why } : {}),
      };
    return {
      status,
      ...shot,
      aborted: this.responder.aborted,
      blocked: this.responder.blocked,
      verified: verdict.verified,
    };
  }

  private failed(status: RenderStatus, error: string): SlotResult {
    return {
      status,
      png: fallbackPng(),
      ...FALLBACK_SIZE,
      aborted: this.responder.aborted,
      blocked: this.responder.blocked,
      error,
    };
  }

  /**
   * The checks of a capture (verify.ts) on the handle the write returned: a navigation gives the
   * frame a new document (and a new realm, where the handle no longer resolves).
   */
  private async check(
    shot: { width: number; height: number },
    settings: RenderSettings,
    html: string,
  ): Promise<ReturnType<typeof verifyCapture>> {
    const handle = this.written;
    this.written = null;
    if (!handle) return { why: "the page's document could not be reached after it was written" };
    const facts = await within(handle.evaluate(CHECK_DOCUMENT), CHECK_TIMEOUT_MS, "checking the capture").catch(
      (error: unknown) => error as Error,
    );
    void handle.dispose().catch(() => {});
    if (facts instanceof Error) {
      if (facts.message.startsWith("checking the capture took longer"))
        return { why: `the capture could not be checked: ${facts.message}` };
      return verifyCapture(shot, { sameDocument: false, extent: null, hasContent: false }, false);
    }
    if (facts?.refresh) this.spent = true;
    const extent = facts?.extent ? clipExtent(this.captureSize(facts.extent, settings), settings) : null;
    return verifyCapture(
      shot,
      {
        sameDocument: facts !== null,
        ...(facts?.url ? { navigatedTo: facts.url } : {}),
        extent,
        hasContent: facts?.content ?? false,
      },
      promisesContent(html),
    );
  }

  /**
   * Writes the page into the reused document (document.open/write/close, as Puppeteer's
   * setContent does) and waits until it has loaded, or the deadline. The document's readyState is
   * polled rather than its load event awaited: a page that starts navigating away while it is
   * written (answered 204, so it stays) gets no load event in Firefox.
   */
  private async load(html: string, deadlineMs: number): Promise<"loaded" | "deadline" | "navigated"> {
    let finished = false;
    const write = (h: string) => {
      document.open();
      document.write(h);
      document.close();
      return document;
    };
    void this.written?.dispose().catch(() => {});
    this.written = null;
    const loaded = (async () => {
      // The handle is taken in the same task as the write: no navigation can come between them.
      const written = await this.page.evaluateHandle(write, html).catch(() => null);
      this.written = written;
      while (!finished) {
        // Asked of the document written: one that has gone (navigated away) never completes.
        const state = written
          ? await within(written.evaluate(READY_STATE), 1_000, "reading the page's state").catch((error: unknown) =>
              error instanceof Error && error.message.startsWith("reading the page's state took longer")
                ? null
                : "navigated",
            )
          : await within(this.page.evaluate("document.readyState"), 1_000, "reading the page's state").catch(
              () => null,
            );
        if (state === "complete") return "loaded" as const;
        if (state === "navigated") return "navigated" as const;
        await new Promise((r) => setTimeout(r, 50));
      }
      return "deadline" as const;
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"deadline">((resolve) => (timer = setTimeout(() => resolve("deadline"), deadlineMs)));
    try {
      return await Promise.race([loaded, deadline]);
    } finally {
      finished = true;
      clearTimeout(timer);
    }
  }

  /** Until every resource asked for has arrived (CSS background images come after load), or the deadline. */
  private async settle(deadline: number): Promise<"settled" | "deadline"> {
    // Style and layout now, which is when background images are asked for.
    await within(
      this.page.evaluate("document.documentElement && document.documentElement.getBoundingClientRect().height"),
      Math.max(deadline - Date.now(), 1),
      "styling",
    ).catch(() => {});
    if (this.pending.size === 0) return "settled";
    let timer: NodeJS.Timeout | undefined;
    return new Promise<"settled" | "deadline">((resolve) => {
      this.onIdle = () => resolve("settled");
      timer = setTimeout(() => resolve("deadline"), Math.max(deadline - Date.now(), 0));
    }).finally(() => {
      clearTimeout(timer);
      this.onIdle = null;
    });
  }

  /**
   * "document": Firefox's own documentElement.scrollWidth x scrollHeight, the rectangle its full
   * screenshot covers. "full-page": the same, at least the window (Chromium's full-page rule).
   */
  private async capture(settings: RenderSettings): Promise<{ png: Buffer; width: number; height: number }> {
    const scroll = (await this.page.evaluate(
      "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]",
    )) as [number, number];
    const clip = clipExtent(this.captureSize(scroll, settings), settings);
    // A capture from the document's origin stops at the document's edge, so a box reaching below a
    // short quirks-mode document (full-page's at-least-the-window) is taken from the viewport.
    const inView = clip.width <= settings.width && clip.height <= settings.viewportHeight;
    const png = Buffer.from(
      await this.page.screenshot({ type: "png", clip: { x: 0, y: 0, ...clip }, captureBeyondViewport: !inView }),
    );
    return { png, ...pngSize(png) };
  }

  /** The capture's rectangle from documentElement.scrollWidth x scrollHeight, before clipping. */
  private captureSize([sw, sh]: [number, number], settings: RenderSettings): { width: number; height: number } {
    return settings.extent === "document"
      ? { width: sw, height: sh }
      : { width: Math.max(sw, settings.width), height: Math.max(sh, settings.viewportHeight) };
  }

  async close(): Promise<void> {
    this.spent = true;
    await within(this.context.close(), CLOSE_TIMEOUT_MS, "closing a page").catch(() => {});
  }
}

/** What a lane's Firefox may hold in private memory, all processes together, while it renders a page. */
export const DEFAULT_FIREFOX_MEMORY_LIMIT_BYTES = 2 * 2 ** 30;

/** One Firefox of its own (its own parent, content and compositor processes), showing one page at a time. */
class FirefoxLane implements Lane<FirefoxSlot> {
  private running: Browser | null = null;
  private profile: string | null = null;
  private launching: Promise<Browser> | null = null;

  constructor(private readonly options: FirefoxPoolOptions) {}

  browser(): Promise<Browser> {
    if (this.running?.connected) return Promise.resolve(this.running);
    this.launching ??= (async () => {
      await this.kill();
      const profile = mkdtempSync(path.join(this.options.profileRoot ?? os.tmpdir(), "colbench-firefox-"));
      try {
        const browser = await puppeteer.launch({
          browser: "firefox",
          executablePath: this.options.executablePath,
          headless: true,
          userDataDir: profile,
          extraPrefsFirefox: FIREFOX_PREFS,
          defaultViewport: null,
          protocolTimeout: 30_000,
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
        this.running = browser;
        this.profile = profile;
        return browser;
      } catch (error) {
        rmSync(profile, { recursive: true, force: true });
        throw error;
      }
    })().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  async open(): Promise<FirefoxSlot> {
    for (let attempt = 0; ; attempt++) {
      const browser = await this.browser();
      try {
        return await FirefoxSlot.open(browser, this.options);
      } catch (error) {
        if (attempt >= 2) throw error;
        await this.kill(); // a browser that cannot open a page is relaunched
      }
    }
  }

  pid(): number | undefined {
    return this.running?.process()?.pid;
  }

  async kill(): Promise<void> {
    const pid = this.pid();
    await killBrowser(pid, () => this.close());
  }

  async close(): Promise<void> {
    const browser = this.running;
    const profile = this.profile;
    this.running = null;
    this.profile = null;
    if (browser) {
      const proc = browser.process();
      await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS))]);
      if (proc && proc.exitCode === null) proc.kill("SIGKILL");
    }
    if (profile) rmSync(profile, { recursive: true, force: true });
  }
}

export class FirefoxPool extends SlotPool<FirefoxSlot> {
  private constructor(private readonly options: FirefoxPoolOptions) {
    super({
      memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_FIREFOX_MEMORY_LIMIT_BYTES,
      captureTimeoutMs: options.captureTimeoutMs,
    });
  }

  static async start(options: FirefoxPoolOptions): Promise<FirefoxPool> {
    const pool = new FirefoxPool(options);
    // The first lane's browser starts now, so that a broken installation fails here.
    const first = new FirefoxLane(options);
    pool.browserVersion = await (await first.browser()).version();
    pool.startRunners(options.concurrency, first);
    return pool;
  }

  protected newLane(): FirefoxLane {
    return new FirefoxLane(this.options);
  }
}
