import type { RenderSettings } from "../../lib/scoring/frontend/render-protocol";
import type { SlotResult } from "./slot";

/** A browser engine's pool of pages, as the worker's main loop uses it (pool.ts: Chromium, firefox.ts: Firefox). */
export interface Engine {
  /** e.g. "Chrome/156.0.8078.79" or "firefox/153.7.0". */
  browserVersion: string;
  render(html: string, settings: RenderSettings, deadlineMs: number): Promise<SlotResult>;
  close(): Promise<void>;
}
