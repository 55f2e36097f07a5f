import type { CDPSession } from "puppeteer-core";
import { launchChromium, type LaunchedBrowser } from "./browser";
import { Slot, type SlotOptions } from "./slot";
import { SlotPool } from "./slot-pool";

// Chromium's slots are browser contexts with one page each; if Chromium itself dies it is relaunched.

export interface ChromiumPoolOptions extends SlotOptions {
  executablePath: string;
  concurrency: number;
  /** Chromium's command-line flags; default POOL_CHROMIUM_FLAGS. */
  flags?: string[];
  /** Where Chromium profiles are made; default the system's temporary folder. */
  profileRoot?: string;
}

export class ChromiumPool extends SlotPool<Slot> {
  private chromium: (LaunchedBrowser & { root: CDPSession }) | null = null;
  private launching: Promise<LaunchedBrowser & { root: CDPSession }> | null = null;

  private constructor(private readonly options: ChromiumPoolOptions) {
    super();
  }

  static async start(options: ChromiumPoolOptions): Promise<ChromiumPool> {
    const pool = new ChromiumPool(options);
    const chromium = await pool.browser();
    pool.browserVersion = await chromium.browser.version();
    pool.startRunners(options.concurrency);
    return pool;
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

  protected async openSlot(): Promise<Slot> {
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

  protected async closeBrowser(): Promise<void> {
    await this.chromium?.close();
  }
}
