import { describe, expect, it } from "vitest";
import { DEFAULT_RENDER_SETTINGS, type RenderSettings } from "../../lib/scoring/frontend/render-protocol";
import { failedResult, SlotPool, type Lane, type RenderSlot } from "./slot-pool";
import type { SlotResult } from "./slot";

// The pool's rules without a browser: a render that is not clean is tried again in a fresh browser
// with no other page rendering meanwhile, and a slot that became spent while idle is not used again.

const ok = (html: string): SlotResult => ({
  status: "ok",
  png: Buffer.from(html),
  width: 1,
  height: 1,
  aborted: 0,
  blocked: [],
});

class Recorder {
  inFlight = 0;
  /** For each second attempt: how many other renders were in flight while it ran. */
  retriesBeside: number[] = [];
  rendered: { html: string; slot: number }[] = [];
  slots = 0;
}

class FakeSlot implements RenderSlot {
  spent = false;
  constructor(
    private readonly rec: Recorder,
    /** Its browser was just launched: the first page it renders is a retry. */
    private fresh: boolean,
    readonly id: number,
  ) {}

  async render(html: string, _settings: RenderSettings, _deadlineMs: number): Promise<SlotResult> {
    const rec = this.rec;
    const fresh = this.fresh;
    this.fresh = false;
    rec.inFlight++;
    const besides = rec.inFlight - 1;
    rec.rendered.push({ html, slot: this.id });
    try {
      await new Promise((r) => setTimeout(r, html.startsWith("slow") ? 60 : 15));
      if (html.startsWith("bad") && !fresh) return failedResult(`${html} failed`);
      if (html.startsWith("bad")) rec.retriesBeside.push(besides);
      if (html === "navigates later") setTimeout(() => (this.spent = true), 5);
      return ok(html);
    } finally {
      rec.inFlight--;
    }
  }

  async close(): Promise<void> {
    this.spent = true;
  }
}

class FakeLane implements Lane<FakeSlot> {
  /** Set by a kill: the next page opens in a fresh browser, where a "bad" page renders. */
  private afterKill = false;
  constructor(private readonly rec: Recorder) {}
  async open(): Promise<FakeSlot> {
    const fresh = this.afterKill;
    this.afterKill = false;
    return new FakeSlot(this.rec, fresh, ++this.rec.slots);
  }
  pid(): number | undefined {
    return undefined;
  }
  async kill(): Promise<void> {
    this.afterKill = true;
  }
  async close(): Promise<void> {}
}

class FakePool extends SlotPool<FakeSlot> {
  constructor(
    private readonly rec: Recorder,
    concurrency: number,
  ) {
    super({ memoryLimitBytes: 2 ** 40, captureTimeoutMs: 1_000 });
    this.startRunners(concurrency);
  }
  protected newLane(): FakeLane {
    return new FakeLane(this.rec);
  }
}

describe("the slot pool", () => {
  it("tries a failed render again alone, in a fresh browser, and says what the first attempt met", async () => {
    const rec = new Recorder();
    const pool = new FakePool(rec, 3);
    try {
      const pages = ["slow 1", "bad 1", "slow 2", "slow 3", "bad 2", "slow 4", "slow 5", "slow 6", "bad 3", "slow 7"];
      const results = await Promise.all(pages.map((html) => pool.render(html, DEFAULT_RENDER_SETTINGS, 1_000)));
      for (const [i, r] of results.entries()) {
        expect(r.status, pages[i]).toBe("ok");
        if (pages[i]!.startsWith("bad")) expect(r.retried).toEqual({ status: "failed", error: `${pages[i]} failed` });
        else expect(r.retried).toBeUndefined();
      }
      expect(rec.retriesBeside).toEqual([0, 0, 0]);
    } finally {
      await pool.close();
    }
  });

  it("does not render into a slot that became spent after its last page", async () => {
    const rec = new Recorder();
    const pool = new FakePool(rec, 1);
    try {
      await pool.render("navigates later", DEFAULT_RENDER_SETTINGS, 1_000);
      await new Promise((r) => setTimeout(r, 20));
      await pool.render("next", DEFAULT_RENDER_SETTINGS, 1_000);
      const [first, next] = rec.rendered;
      expect(next!.slot).not.toBe(first!.slot);
    } finally {
      await pool.close();
    }
  });
});
