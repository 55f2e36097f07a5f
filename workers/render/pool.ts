import type { CDPSession } from "puppeteer-core";
import { launchChromium, type LaunchedBrowser } from "./browser";
import { Slot, type SlotOptions } from "./slot";
import { killBrowser, SlotPool, type Lane, type LaneLimits } from "./slot-pool";

// Chromium's lanes: one Chromium each (its own browser, GPU and renderer processes), showing one
// page at a time in a browser context of its own.

export interface ChromiumPoolOptions extends SlotOptions, Partial<Omit<LaneLimits, "captureTimeoutMs">> {
  executablePath: string;
  concurrency: number;
  /** Chromium's command-line flags; default POOL_CHROMIUM_FLAGS. */
  flags?: string[];
  /** Where Chromium profiles are made; default the system's temporary folder. */
  profileRoot?: string;
}

/** What a lane's Chromium may hold in private memory, all processes together, while it renders a page. */
export const DEFAULT_MEMORY_LIMIT_BYTES = 2 * 2 ** 30;

type Running = LaunchedBrowser & { root: CDPSession };

/**
 * The tab Chromium opens at launch is never used (pages get contexts of their own), but it keeps a
 * renderer of its own busy while the lane is idle: closing it took an idle lane's renderers from 10
 * CPU-ms a second to 4, and its browser from 16 to 13.
 */
async function closeStartPage(root: CDPSession): Promise<void> {
  const { targetInfos } = await root.send("Target.getTargets");
  // Called right after launch, before any page of ours exists.
  for (const t of targetInfos) if (t.type === "page") await root.send("Target.closeTarget", { targetId: t.targetId });
}

class ChromiumLane implements Lane<Slot> {
  private chromium: Running | null = null;
  private launching: Promise<Running> | null = null;

  constructor(private readonly options: ChromiumPoolOptions) {}

  async browser(): Promise<Running> {
    if (this.chromium?.browser.connected) return this.chromium;
    this.launching ??= (async () => {
      await this.kill();
      const launched = await launchChromium(this.options.executablePath, this.options.flags, this.options.profileRoot);
      try {
        // Pages are made with browser-level CDP commands (contexts, targets) on this session.
        const running = { ...launched, root: await launched.browser.target().createCDPSession() };
        await closeStartPage(running.root);
        this.chromium = running;
        return running;
      } catch (error) {
        await launched.close();
        throw error;
      }
    })().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  async open(): Promise<Slot> {
    for (let attempt = 0; ; attempt++) {
      const { root } = await this.browser();
      try {
        return await Slot.open(root, this.options);
      } catch (error) {
        if (attempt >= 2) throw error;
        await this.kill(); // a browser that cannot open a page is relaunched
      }
    }
  }

  pid(): number | undefined {
    return this.chromium?.browser.process()?.pid;
  }

  async kill(): Promise<void> {
    const running = this.chromium;
    this.chromium = null;
    if (running) await killBrowser(running.browser.process()?.pid, running.close);
  }

  async close(): Promise<void> {
    const running = this.chromium;
    this.chromium = null;
    await running?.close();
  }
}

export class ChromiumPool extends SlotPool<Slot> {
  private constructor(private readonly options: ChromiumPoolOptions) {
    super({
      memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES,
      captureTimeoutMs: options.captureTimeoutMs,
    });
  }

  static async start(options: ChromiumPoolOptions): Promise<ChromiumPool> {
    const pool = new ChromiumPool(options);
    // The first lane's browser starts now, so that a broken installation fails here.
    const first = new ChromiumLane(options);
    pool.browserVersion = await (await first.browser()).browser.version();
    pool.startRunners(options.concurrency, first);
    return pool;
  }

  protected newLane(): ChromiumLane {
    return new ChromiumLane(this.options);
  }
}
