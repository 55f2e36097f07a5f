import type { CDPSession, Protocol } from "puppeteer-core";
import type { RenderSettings, RenderStatus, RenderVerification } from "../../lib/scoring/frontend/render-protocol";
import { FALLBACK_SIZE, fallbackPng, pngSize } from "../../lib/scoring/frontend/png";
import { mayChangeAfterParse } from "./css-subset";
import { clipExtent, MEASURE_DOCUMENT_EXTENT, type Extent } from "./extent";
import { inlineTailwind } from "./inline-css";
import { mayRequestAfterLoad } from "./late-requests";
import { Responder, type Reply, type ResponderOptions } from "./responder";
import { tailwindSubsetter } from "./tailwind";
import { DOCUMENT_HAS_CONTENT, DOCUMENT_HAS_REFRESH, mayNavigateLater, promisesContent, verifyCapture } from "./verify";

// One worker page in its own browser context (concurrent full-page captures from pages of one
// context hang in this Chromium), driven over a raw CDP session: Puppeteer's Page would enable
// network events and bookkeeping that cost more CPU than the rendering here. The page is reused
// (Page.setDocumentContent keeps the renderer process, several times cheaper than navigating)
// and thrown away after anything unusual: a page with scripts (timers could outlive it), one that
// may navigate (a meta refresh's timer outlives the page too, see verify.ts), a navigation of the
// frame seen at any time, a timeout, a crash, or many uses.

export interface SlotResult {
  status: RenderStatus;
  png: Buffer;
  width: number;
  height: number;
  aborted: number;
  blocked: string[];
  error?: string;
  /** Set when this is a second attempt, in a fresh browser: how the first one ended. */
  retried?: { status: RenderStatus; error?: string };
  /** How an "ok" capture was checked (verify.ts); never set on another status. */
  verified?: RenderVerification;
}

export interface SlotOptions extends ResponderOptions {
  captureTimeoutMs: number;
  /**
   * Tests only: answer image requests this many milliseconds late, as a busy machine may deliver
   * them, to show that a capture waits for every picture the page asked for.
   */
  delayImagesMs?: number;
  /** Tests only: which pages are watched for requests after their load event (default mayRequestAfterLoad). */
  mayRequestAfterLoad?: (html: string) => boolean;
}

const MAX_USES = 250;

/**
 * How every page is shown, pool and benchmark baseline alike (see applyPagePolicy):
 * - CSS transitions and animations run a million times faster, so a capture shows the page's
 *   settled state rather than whatever frame of a fade was current (a stylesheet arriving a
 *   moment after the first style pass starts every `transition` on the page);
 * - the generic font families are Chrome's Linux defaults, which chromium-headless-shell
 *   (no browser preferences) would otherwise resolve differently.
 */
export const PAGE_POLICY = [
  ["Animation.setPlaybackRate", { playbackRate: 1e6 }],
  [
    "Page.setFontFamilies",
    {
      fontFamilies: {
        standard: "Times New Roman",
        serif: "Times New Roman",
        sansSerif: "Arial",
        fixed: "Monospace",
        cursive: "Comic Sans MS",
        fantasy: "Impact",
      },
    },
  ],
] as const;
/**
 * A page left animating in an idle slot (an infinite CSS animation, an animated picture) would go
 * on drawing a frame every 16 ms until the next page replaced it, so slots that showed one are
 * replaced. (Without the frame-rate limit, tried for the capture's wait, it was as fast as the CPU
 * allows: workers/render/README.md.)
 */
const MAY_ANIMATE = /animat|marquee|keyframes|data:image\/(gif|webp|png)/i;
const CONTROL_TIMEOUT_MS = 3_000;
/** Network events only to know when each request has finished loading (see settle); no bodies kept. */
const NETWORK_EVENTS_ONLY = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };
const READY_POLL_MS = 200;
/** Holds this slot's handle on the document its pages are written into (see writtenDocument). */
const DOCUMENT_GROUP = "colbench-written-document";

/** What the check of a capture reads in the written document (null: the frame shows another document). */
interface DocumentFacts {
  content: boolean;
  refresh: boolean;
  /** MEASURE_DOCUMENT_EXTENT's answer, for the "document" extent. */
  extent: [number, number, string] | null;
  url: string;
}

function contentExtent(metrics: Protocol.Page.GetLayoutMetricsResponse): Extent {
  const content = metrics.cssContentSize ?? metrics.contentSize;
  return { width: Math.ceil(content.width), height: Math.ceil(content.height) };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

export class Slot {
  /** Set when this slot must not take another page. */
  spent = false;
  /** Set when the page crashed or its session ended. */
  private gone = false;
  /** The handle writtenDocument keeps. */
  private documentId: string | null = null;
  private uses = 0;
  private viewport = "";
  private onLoad: (() => void) | null = null;
  private onGone: ((error: Error) => void) | null = null;
  /** Requests of the current page that the renderer has not finished loading (Network ids). */
  private readonly loading = new Set<string>();
  private onLoaded: (() => void) | null = null;
  private readonly responder: Responder;
  /** Navigations of the main frame committed so far, and the last one's URL: setDocumentContent is not one of them. */
  private navigations = 0;
  private navigatedTo = "";
  /** Whether Network events are on (late-requests.ts: only for pages that may ask for something after their load event). */
  private watching = true;
  /** Set at the current page's load event (from its event, so no request answered after it is missed). */
  private loadSeen = false;
  /**
   * On a page that is not watched, a request the load event did not wait for (one asked for after
   * it, or still being answered when it came), so the capture may lack it.
   */
  private unwatched = false;
  /** Requests of the current page being answered (Fetch ids). */
  private readonly answering = new Set<string>();

  private constructor(
    private readonly root: CDPSession,
    private readonly contextId: string,
    private readonly cdp: CDPSession,
    private readonly mainFrameId: string,
    private readonly options: SlotOptions,
  ) {
    this.responder = new Responder(options);
    cdp.on("Fetch.requestPaused", (event) => this.answer(event));
    cdp.on("Network.requestWillBeSent", (event) => this.loading.add(event.requestId));
    const finished = (event: { requestId: string }) => {
      if (this.loading.delete(event.requestId) && this.loading.size === 0) this.loaded();
    };
    cdp.on("Network.loadingFinished", finished);
    cdp.on("Network.loadingFailed", finished);
    // The main frame's load event (Page.enable reports it; lifecycle events would add a dozen
    // messages per page through the browser for this one).
    cdp.on("Page.loadEventFired", () => {
      this.pageLoaded();
      this.take("onLoad")?.();
    });
    // Anything that starts, schedules or commits a navigation of the page's own frame may land on a
    // later page written into this document, whenever it arrives (between pages too): the slot is
    // not reused, and a commit during a render fails that render's check.
    const mayNavigate = (event: { frameId: string }) => {
      if (event.frameId === this.mainFrameId) this.spent = true;
    };
    cdp.on("Page.frameScheduledNavigation", mayNavigate);
    cdp.on("Page.frameRequestedNavigation", mayNavigate);
    cdp.on("Page.frameStartedNavigating", mayNavigate);
    cdp.on("Page.frameNavigated", (event) => {
      if (event.frame.id !== this.mainFrameId || event.type === "BackForwardCacheRestore") return;
      this.spent = true;
      this.navigations++;
      this.navigatedTo = event.frame.url;
    });
    cdp.on("Page.javascriptDialogOpening", () => {
      cdp.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
    });
    const gone = (why: string) => () => {
      this.spent = true;
      this.gone = true;
      this.take("onGone")?.(new Error(why));
      // Nothing more will load: the capture that follows fails at once.
      this.loaded();
    };
    cdp.on("Inspector.targetCrashed", gone("the page crashed"));
    cdp.on("Inspector.detached", gone("the page went away"));
  }

  static async open(root: CDPSession, options: SlotOptions): Promise<Slot> {
    const { browserContextId } = await root.send("Target.createBrowserContext", { disposeOnDetach: true });
    try {
      const { targetId } = await root.send("Target.createTarget", { url: "about:blank", browserContextId });
      const { sessionId } = await root.send("Target.attachToTarget", { targetId, flatten: true });
      const cdp = root.connection()?.session(sessionId);
      if (!cdp) throw new Error("no CDP session for the new page");
      await Promise.all([
        cdp.send("Page.enable"),
        cdp.send("Inspector.enable"),
        cdp.send("Network.enable", NETWORK_EVENTS_ONLY),
        cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] }),
        ...PAGE_POLICY.map(([method, params]) => cdp.send(method, params)),
      ]);
      const { frameTree } = await cdp.send("Page.getFrameTree");
      return new Slot(root, browserContextId, cdp, frameTree.frame.id, options);
    } catch (error) {
      await root.send("Target.disposeBrowserContext", { browserContextId }).catch(() => {});
      throw error;
    }
  }

  /** The waiter for this page's outcome (at most one of them ever fires). */
  private take(which: "onLoad"): (() => void) | null;
  private take(which: "onGone"): ((error: Error) => void) | null;
  private take(which: "onLoad" | "onGone") {
    const f = which === "onLoad" ? this.onLoad : this.onGone;
    this.onLoad = null;
    this.onGone = null;
    return f;
  }

  async render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult> {
    const started = Date.now();
    const watch = mayChangeAfterParse(html) || (this.options.mayRequestAfterLoad ?? mayRequestAfterLoad)(html);
    const first = await this.renderOnce(html, settings, deadlineMs, watch);
    if (!this.unwatched || first.status !== "ok" || this.spent) return first;
    // It asked for something after its load event that nothing waited for: again, waiting for it.
    return this.renderOnce(html, settings, Math.max(deadlineMs - (Date.now() - started), 1_000), true);
  }

  private async renderOnce(
    html: string,
    settings: RenderSettings,
    deadlineMs: number,
    watch: boolean,
  ): Promise<SlotResult> {
    const started = Date.now();
    this.uses++;
    if (this.uses >= MAX_USES || mayChangeAfterParse(html) || mayNavigateLater(html) || MAY_ANIMATE.test(html))
      this.spent = true;
    this.loadSeen = false;
    this.unwatched = false;
    this.answering.clear();
    const ready = await within(
      Promise.all([this.setViewport(settings.width, settings.viewportHeight), this.watchRequests(watch)]),
      CONTROL_TIMEOUT_MS,
      "preparing the page",
    ).catch((error: unknown) => error as Error);
    if (ready instanceof Error) {
      this.spent = true;
      return this.fallback("failed", ready);
    }
    this.responder.begin(html);
    this.loading.clear();
    const navigations = this.navigations;
    const written = await this.writtenDocument();
    if (written instanceof Error) {
      this.spent = true;
      return this.fallback("failed", written);
    }

    let status: RenderStatus = "ok";
    let why = "";
    // A static page's stylesheet goes in with it (inline-css.ts); what it asks for otherwise is answered as it comes.
    const inlined =
      this.options.subsetTailwind && !mayChangeAfterParse(html)
        ? inlineTailwind(html, (file) => tailwindSubsetter(file).forPage(html))
        : null;
    let outcome = await this.load(inlined ?? html, deadlineMs).catch((error: unknown) => error as Error);
    if (outcome instanceof Error) {
      this.spent = true;
      return this.fallback("failed", outcome);
    }
    // The layout settle() measured, when nothing was left loading by then and no script can change it: the capture's size.
    let measured: Extent | undefined;
    if (outcome === "loaded") {
      this.pageLoaded();
      const settled = await this.settle(started + deadlineMs);
      if (settled === "deadline") outcome = "deadline";
      else if (settled !== "settled" && !mayChangeAfterParse(html)) measured = settled;
    }
    if (outcome === "deadline") {
      status = "timeout";
      why = `the page was still loading at its ${deadlineMs} ms deadline; its scripts were stopped and it was captured as it stood`;
      this.spent = true;
      this.stopScripts();
    }

    // A script still busy after load (a loop in a timer) keeps the page from painting: the
    // capture waits out what is left of the deadline, then scripts are stopped and it waits on.
    const capture = this.capture(settings, measured);
    capture.catch(() => {});
    const budget = Math.max(deadlineMs - (Date.now() - started), 1_000);
    let shot = await within(capture, Math.min(budget, this.options.captureTimeoutMs), "capturing the page").catch(
      (error: unknown) => error as Error,
    );
    if (shot instanceof Error && !this.gone && status === "ok") {
      status = "timeout";
      why = `a script kept the page from being drawn past its ${deadlineMs} ms deadline; its scripts were stopped and it was captured as it stood`;
      this.spent = true;
      this.stopScripts();
      shot = await within(capture, this.options.captureTimeoutMs, "capturing the page").catch(
        (error: unknown) => error as Error,
      );
    }
    if (shot instanceof Error) {
      this.spent = true;
      return this.fallback(status === "ok" ? "failed" : status, shot);
    }
    const verdict = await this.check(written, navigations, shot, settings, html);
    // A page captured as it stood at its deadline is not held to its extent or content, but a
    // capture of another document is no capture of it at all.
    if ("why" in verdict && (status === "ok" || verdict.navigated)) {
      this.spent = true;
      return this.fallback("failed", new Error(status === "ok" ? verdict.why : `${why}; ${verdict.why}`));
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

  /**
   * A handle on the document pages are written into, taken before the slot's first write and kept
   * for its life. setDocumentContent keeps the Document object (document.open), so the handle
   * names the document of every page written into it; a navigation replaces that document and
   * destroys the handle's context with it, and a slot that saw one is not reused. One handle for
   * all pages spares each page two commands (taking a handle and releasing it), each ~0.5 CPU-ms of
   * the browser's and ~0.3 of the renderer's (measured one by one, 2026-11-29).
   */
  private async writtenDocument(): Promise<string | Error> {
    if (this.documentId) return this.documentId;
    const taken = await within(
      this.cdp.send("Runtime.evaluate", { expression: "document", objectGroup: DOCUMENT_GROUP }),
      CONTROL_TIMEOUT_MS,
      "reaching the page's document",
    ).catch((error: unknown) => error as Error);
    if (taken instanceof Error) return taken;
    if (!taken.result.objectId) return new Error("the page's document could not be reached");
    this.documentId = taken.result.objectId;
    return this.documentId;
  }

  /**
   * The checks of a capture (verify.ts), in one call on the handle taken before the page was
   * written: it fails when that document's context is gone, i.e. the frame navigated.
   */
  private async check(
    documentId: string,
    navigationsBefore: number,
    shot: { width: number; height: number },
    settings: RenderSettings,
    html: string,
  ): Promise<ReturnType<typeof verifyCapture>> {
    const measure = settings.extent === "document" ? MEASURE_DOCUMENT_EXTENT : "null";
    const facts = await within(
      this.cdp.send("Runtime.callFunctionOn", {
        objectId: documentId,
        functionDeclaration: `function () { const d = this; if (d !== document) return null; return { content: ${DOCUMENT_HAS_CONTENT}, refresh: ${DOCUMENT_HAS_REFRESH}, extent: ${measure}, url: location.href }; }`,
        returnByValue: true,
      }),
      CONTROL_TIMEOUT_MS,
      "checking the capture",
    ).then(
      (r) => r,
      (error: unknown) => error as Error,
    );
    if (facts instanceof Error) {
      // The handle's context is destroyed with its document: the frame navigated.
      if (/context|object with given id/i.test(facts.message))
        return verifyCapture(
          shot,
          { sameDocument: false, navigatedTo: this.navigatedTo || undefined, extent: null, hasContent: false },
          false,
        );
      return { why: `the capture could not be checked: ${facts.message}` };
    }
    if (facts.exceptionDetails)
      return {
        why: `the capture could not be checked: ${facts.exceptionDetails.exception?.description ?? facts.exceptionDetails.text}`,
      };
    return this.verdict(facts.result.value as DocumentFacts | null, navigationsBefore, shot, settings, html);
  }

  private async verdict(
    facts: DocumentFacts | null,
    navigationsBefore: number,
    shot: Extent,
    settings: RenderSettings,
    html: string,
  ): Promise<ReturnType<typeof verifyCapture>> {
    if (facts?.refresh) this.spent = true;
    const sameDocument = facts !== null && this.navigations === navigationsBefore;
    let extent: Extent | null = null;
    if (sameDocument) {
      // Measured by the capture's own rule, clipped as the capture is.
      const v = facts.extent;
      const size =
        settings.extent === "document" && Array.isArray(v) && v[0] > 0 && v[1] > 0
          ? { width: v[0], height: v[1] }
          : await this.fullPageSize().catch(() => null);
      extent = size && clipExtent(size, settings);
    }
    return verifyCapture(
      shot,
      { sameDocument, navigatedTo: this.navigatedTo || facts?.url, extent, hasContent: facts?.content ?? false },
      promisesContent(html),
    );
  }

  /** The page has loaded (its load event, or its readyState polled while a request held the event back). */
  private pageLoaded(): void {
    if (this.loadSeen) return;
    this.loadSeen = true;
    if (!this.watching && this.answering.size > 0) this.unwatched = true;
  }

  private async watchRequests(on: boolean): Promise<void> {
    if (on === this.watching) return;
    this.watching = on;
    await (on ? this.cdp.send("Network.enable", NETWORK_EVENTS_ONLY) : this.cdp.send("Network.disable"));
  }

  private async setViewport(width: number, height: number): Promise<void> {
    const viewport = `${width}x${height}`;
    if (viewport === this.viewport) return;
    await this.cdp.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
    this.viewport = viewport;
  }

  /**
   * Writes the page into the reused document and waits for its load event, its end (crash), or
   * the deadline. Page.setDocumentContent does not return while a script of the page runs, so
   * it is never awaited alone. The load event is not reported for a document that
   * tried to navigate away meanwhile, so document.readyState is polled as well.
   */
  private async load(html: string, deadlineMs: number): Promise<"loaded" | "deadline"> {
    let finished = false;
    const timers: NodeJS.Timeout[] = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => timers.push(setTimeout(resolve, ms)));
    const event = new Promise<"loaded">((resolve, reject) => {
      this.onLoad = () => resolve("loaded");
      this.onGone = reject;
    });
    const written = this.cdp.send("Page.setDocumentContent", { frameId: this.mainFrameId, html });
    written.catch((error: unknown) => this.take("onGone")?.(error as Error));
    const polled = (async (): Promise<"loaded"> => {
      // Not before the new content is in: Runtime.evaluate may reach the renderer ahead of
      // setDocumentContent, and the document it replaces (the last page, or a fresh slot's
      // about:blank) is already "complete", which captured that document instead.
      await written.catch(() => {});
      await sleep(READY_POLL_MS);
      while (!finished) {
        const r = await this.cdp
          .send("Runtime.evaluate", { expression: "document.readyState", returnByValue: true })
          .catch(() => null);
        if (r?.result.value === "complete") return "loaded";
        await sleep(READY_POLL_MS);
      }
      return new Promise<never>(() => {});
    })();
    try {
      return await Promise.race([event, polled, sleep(deadlineMs).then(() => "deadline" as const)]);
    } finally {
      finished = true;
      this.take("onLoad");
      for (const t of timers) clearTimeout(t);
    }
  }

  private loaded(): void {
    const f = this.onLoaded;
    this.onLoaded = null;
    f?.();
  }

  /**
   * Waits until the renderer has every resource the page asked for, or the deadline. The load
   * event does not wait for CSS background images: they are requested when the page is first
   * styled, which may come after it, so a capture right after load could show the page without
   * them whenever their bytes came late (seen on a loaded CI machine: ColBench target 60's header
   * picture missing from one of two renders of the same page).
   */
  private async settle(deadline: number): Promise<"settled" | "deadline" | Extent> {
    // Style and layout now: that is when background images are requested, and the request's
    // event reaches us before the reply to this command. A script busy since the load event holds
    // the main thread, and the command with it: then the deadline is what ends the wait.
    const styled = await within(
      this.cdp.send("Page.getLayoutMetrics"),
      Math.max(deadline - Date.now(), 1),
      "styling",
    ).then(
      (metrics) => metrics,
      (error: unknown) => !(error instanceof Error && error.message.startsWith("styling took longer")),
    );
    if (styled === false) return "deadline";
    // Everything the page asked for had loaded before that layout: it is the page's final one.
    if (this.loading.size === 0) return styled === true ? "settled" : contentExtent(styled);
    let timer: NodeJS.Timeout | undefined;
    return new Promise<"settled" | "deadline">((resolve) => {
      this.onLoaded = () => resolve("settled");
      timer = setTimeout(() => resolve("deadline"), Math.max(deadline - Date.now(), 0));
    }).finally(() => {
      clearTimeout(timer);
      this.onLoaded = null;
    });
  }

  private answer(event: Protocol.Fetch.RequestPausedEvent): void {
    if (!this.watching && this.loadSeen) this.unwatched = true;
    this.answering.add(event.requestId);
    const reply = this.responder.reply({
      url: event.request.url,
      isNavigation: event.resourceType === "Document",
      isMainFrame: event.frameId === this.mainFrameId,
    });
    const delay = this.options.delayImagesMs && event.resourceType === "Image" ? this.options.delayImagesMs : 0;
    void Promise.all([reply, delay ? new Promise((r) => setTimeout(r, delay)) : null]).then(([r]) =>
      this.send(event.requestId, r),
    );
  }

  private send(requestId: string, reply: Reply): void {
    const sent =
      reply.kind === "continue"
        ? this.cdp.send("Fetch.continueRequest", { requestId })
        : reply.kind === "abort"
          ? this.cdp.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" })
          : this.cdp.send("Fetch.fulfillRequest", {
              requestId,
              responseCode: reply.status,
              responseHeaders: Object.entries(reply.headers).map(([name, value]) => ({ name, value })),
              body: reply.body.toString("base64"),
            });
    // Failed when the page went away mid-request: nothing left to answer.
    const done = () => this.answering.delete(requestId);
    sent.then(done, done);
  }

  /** Chromium's full-page size: the content, at least the viewport. */
  private async fullPageSize(): Promise<Extent> {
    return contentExtent(await this.cdp.send("Page.getLayoutMetrics"));
  }

  /** Firefox's documentElement.scrollWidth x scrollHeight for this page (see extent.ts). */
  private async documentSize(): Promise<Extent> {
    const r = await this.cdp
      .send("Runtime.evaluate", { expression: MEASURE_DOCUMENT_EXTENT, returnByValue: true })
      .catch(() => null);
    const v = r?.result.value as [number, number, string] | undefined;
    if (!Array.isArray(v) || !(v[0] > 0) || !(v[1] > 0)) return this.fullPageSize();
    return { width: v[0], height: v[1] };
  }

  /**
   * The page as a PNG. "full-page": the whole page as Puppeteer's fullPage screenshot captures
   * it (beyond the viewport, `100vh` still the viewport's height). "document": the rectangle
   * Firefox's full screenshot covers; a page taller than the window is laid out again as Firefox
   * lays it out beside its scrollbar, that much narrower. Both clipped on huge pages.
   */
  private async capture(
    settings: RenderSettings,
    measured?: Extent,
  ): Promise<{ png: Buffer; width: number; height: number }> {
    let layoutWidth = settings.width;
    let size: Extent;
    if (settings.extent === "document") {
      size = await this.documentSize();
      if (settings.scrollbar > 0 && size.height > settings.viewportHeight) {
        layoutWidth = settings.width - settings.scrollbar;
        await this.setViewport(layoutWidth, settings.viewportHeight);
        size = await this.documentSize();
      }
    } else size = measured ?? (await this.fullPageSize());
    const { width: w, height: h } = clipExtent(size, settings);
    // A page that fits the viewport is captured as it stands: the same pixels as a full-page
    // capture, without the view being resized and the whole page restyled and redrawn for it.
    const fits = w <= layoutWidth && h <= settings.viewportHeight;
    // A longer page gets an explicit clip from the layout just measured: left to itself,
    // Chromium sizes a beyond-viewport capture from the last frame it drew, which can lag
    // behind a page whose height changed since (seen as a 1226 px page captured at 800).
    const exact = fits && w === layoutWidth && h === settings.viewportHeight;
    const clip = exact ? undefined : { x: 0, y: 0, width: w, height: h, scale: 1 };
    const { data } = await this.cdp.send("Page.captureScreenshot", {
      format: "png",
      // Faster zlib settings in Chromium; the pixels are the same, only the file is larger.
      optimizeForSpeed: true,
      captureBeyondViewport: !fits,
      ...(clip ? { clip } : {}),
    });
    const png = Buffer.from(data, "base64");
    return { png, ...pngSize(png) };
  }

  /**
   * Stops whatever script holds the page's main thread and keeps any more from running.
   * Runtime.terminateExecution interrupts a running loop even while the main thread is busy;
   * the other commands wait behind it, so none is awaited (a parser busy with a huge document
   * cannot be interrupted at all, and the capture's own time limit ends that case).
   */
  private stopScripts(): void {
    const quietly = (p: Promise<unknown>) => void p.catch(() => {});
    quietly(this.cdp.send("Runtime.terminateExecution"));
    quietly(this.cdp.send("Emulation.setScriptExecutionDisabled", { value: true }));
    // A loop started between the first termination and the switch is ended by a second one.
    quietly(this.cdp.send("Runtime.terminateExecution"));
  }

  private fallback(status: RenderStatus, error: Error): SlotResult {
    return {
      status,
      png: fallbackPng(),
      ...FALLBACK_SIZE,
      aborted: this.responder.aborted,
      blocked: this.responder.blocked,
      error: error.message,
    };
  }

  async close(): Promise<void> {
    this.spent = true;
    await within(
      this.root.send("Target.disposeBrowserContext", { browserContextId: this.contextId }),
      CONTROL_TIMEOUT_MS * 2,
      "closing a page",
    ).catch(() => {});
  }
}
