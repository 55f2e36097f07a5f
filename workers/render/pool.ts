import type { CDPSession } from "puppeteer-core";
import type { RenderSettings } from "../../lib/scoring/frontend/render-protocol";
import { FALLBACK_SIZE, fallbackPng } from "../../lib/scoring/frontend/png";
import { launchChromium, type LaunchedBrowser } from "./browser";
import type { Engine } from "./engine";
import { Slot, type SlotOptions, type SlotResult } from "./slot";

// A fixed number of slots (each a browser context with one page) taking jobs from one queue.
// Broken slots are replaced before their next job; if Chromium itself dies it is relaunched.

export interface ChromiumPoolOptions extends SlotOptions {
  executablePath: string;
  concurrency: number;
  /** Chromium's command-line flags; default POOL_CHROMIUM_FLAGS. */
  flags?: string[];
  /** Where Chromium profiles are made; default the system's temporary folder. */
  profileRoot?: string;
}

interface Job {
  html: string;
  settings: RenderSettings;
  deadlineMs: number;
  attempts: number;
  resolve(result: SlotResult): void;
}

export class ChromiumPool implements Engine {
  private chromium: (LaunchedBrowser & { root: CDPSession }) | null = null;
  private launching: Promise<LaunchedBrowser & { root: CDPSession }> | null = null;
  private readonly queue: Job[] = [];
  private readonly runners: Promise<void>[] = [];
  private wake: (() => void)[] = [];
  private closed = false;
  browserVersion = "";

  private constructor(private readonly options: ChromiumPoolOptions) {}

  static async start(options: ChromiumPoolOptions): Promise<ChromiumPool> {
    const pool = new ChromiumPool(options);
    const chromium = await pool.browser();
    pool.browserVersion = await chromium.browser.version();
    for (let i = 0; i < Math.max(1, options.concurrency); i++) pool.runners.push(pool.run());
    return pool;
  }

  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult> {
    if (this.closed) return Promise.reject(new Error("the render pool is closed"));
    return new Promise((resolve) => {
      this.queue.push({ html, settings, deadlineMs, attempts: 0, resolve });
      this.wake.shift()?.();
    });
  }

  private async browser(): Promise<LaunchedBrowser & { root: CDPSession }> {
    if (this.chromium?.browser.connected) return this.chromium;
    this.launching ??= (async () => {
      const old = this.chromium;
      this.chromium = null;
      await old?.close();
      const launched = await launchChromium(this.options.executablePath, this.options.flags, this.options.profileRoot);
      try {
        // Slots are made with browser-level CDP commands (contexts, targets) on this session.
        const fresh = { ...launched, root: await launched.browser.target().createCDPSession() };
        this.chromium = fresh;
        return fresh;
      } catch (error) {
        await launched.close();
        throw error;
      }
    })().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async next(): Promise<Job | null> {
    while (!this.closed) {
      const job = this.queue.shift();
      if (job) return job;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
    return null;
  }

  private async openSlot(): Promise<Slot> {
    for (let attempt = 0; ; attempt++) {
      const { browser, root } = await this.browser();
      try {
        return await Slot.open(root, this.options);
      } catch (error) {
        if (attempt >= 2) throw error;
        if (browser.connected) await this.chromium?.close(); // a browser that cannot open a page is relaunched
      }
    }
  }

  /** One slot's loop: take a job, render it, replace the slot when it is spent. */
  private async run(): Promise<void> {
    let slot: Slot | null = null;
    for (let job = await this.next(); job; job = await this.next()) {
      let result: SlotResult;
      try {
        slot ??= await this.openSlot();
        result = await slot.render(job.html, job.settings, job.deadlineMs);
      } catch (error) {
        // Not the page's doing as far as we can tell (the browser went away): try once more.
        await slot?.close();
        slot = null;
        if (job.attempts++ < 1 && !this.closed) {
          this.queue.unshift(job);
          continue;
        }
        result = { status: "failed", png: fallbackPng(), ...FALLBACK_SIZE, aborted: 0, blocked: [], error: String(error) };
      }
      job.resolve(result);
      if (slot?.spent) {
        await slot.close();
        slot = null;
      }
    }
    await slot?.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.wake.splice(0)) wake();
    for (const job of this.queue.splice(0)) {
      job.resolve({ status: "failed", png: fallbackPng(), ...FALLBACK_SIZE, aborted: 0, blocked: [], error: "the render pool closed" });
    }
    await Promise.all(this.runners);
    await this.chromium?.close();
  }
}
