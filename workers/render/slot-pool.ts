import type { RenderSettings } from "../../lib/scoring/frontend/render-protocol";
import { FALLBACK_SIZE, fallbackPng } from "../../lib/scoring/frontend/png";
import type { Engine } from "./engine";
import type { SlotResult } from "./slot";

// What both engines' pools share: a fixed number of slots (each a page of its own) taking jobs from
// one queue. A slot that breaks is replaced before its next job, and the job tried once more; a
// spent slot (too many pages rendered) is replaced after its job. Engines supply the slots and
// their browser.

export interface RenderSlot {
  readonly spent: boolean;
  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult>;
  close(): Promise<void>;
}

interface Job {
  html: string;
  settings: RenderSettings;
  deadlineMs: number;
  attempts: number;
  resolve(result: SlotResult): void;
}

const failed = (error: string): SlotResult => ({ status: "failed", png: fallbackPng(), ...FALLBACK_SIZE, aborted: 0, blocked: [], error });

export abstract class SlotPool<S extends RenderSlot> implements Engine {
  private readonly queue: Job[] = [];
  private readonly runners: Promise<void>[] = [];
  private wake: (() => void)[] = [];
  protected closed = false;
  browserVersion = "";

  /** A fresh slot, (re)launching the browser as needed. */
  protected abstract openSlot(): Promise<S>;
  /** Ends the browser, once every slot is closed. */
  protected abstract closeBrowser(): Promise<void>;

  protected startRunners(concurrency: number): void {
    for (let i = 0; i < Math.max(1, concurrency); i++) this.runners.push(this.run());
  }

  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult> {
    if (this.closed) return Promise.reject(new Error("the render pool is closed"));
    return new Promise((resolve) => {
      this.queue.push({ html, settings, deadlineMs, attempts: 0, resolve });
      this.wake.shift()?.();
    });
  }

  private async next(): Promise<Job | null> {
    while (!this.closed) {
      const job = this.queue.shift();
      if (job) return job;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
    return null;
  }

  /** One slot's loop: take a job, render it, replace the slot when it is spent. */
  private async run(): Promise<void> {
    let slot: S | null = null;
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
        result = failed(String(error));
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
    for (const job of this.queue.splice(0)) job.resolve(failed("the render pool closed"));
    await Promise.all(this.runners);
    await this.closeBrowser();
  }
}
