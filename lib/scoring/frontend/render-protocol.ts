// Messages between lib/scoring/frontend/render.ts (the client, inside the studio or CLI) and
// workers/render/main.ts (a separate Node process that owns Chromium). Untrusted HTML only ever
// crosses this boundary as a string; it is parsed and run on the worker's side.

/** Everything that changes the pixels of a render. Part of the content address. */
export interface RenderSettings {
  /** Viewport width in CSS pixels (device scale factor 1). */
  width: number;
  /** Viewport height: what `100vh` means while the full page is captured. */
  viewportHeight: number;
  /** Captures longer or wider than this are clipped to it (very long pages would exhaust memory). */
  maxHeight: number;
  maxWidth: number;
}

export const DEFAULT_RENDER_SETTINGS: RenderSettings = {
  width: 1280,
  viewportHeight: 800,
  maxHeight: 16_384,
  maxWidth: 4_096,
};

/**
 * Bumped whenever what a render shows may change: the worker's answers to outside requests
 * (stylesheets, placeholder images), or when it captures (2: after every resource has loaded,
 * so a render cached by revision 1 may lack a background picture).
 */
export const RENDERER_REVISION = 2;

export type RenderStatus = "ok" | "timeout" | "failed";

export interface RenderJob {
  type: "render";
  reqId: number;
  html: string;
  settings: RenderSettings;
  /** Time allowed for the page to load and its scripts to run; then scripts are stopped and it is captured as it is. */
  deadlineMs: number;
}

export interface RenderReply {
  type: "result";
  reqId: number;
  status: RenderStatus;
  png: Uint8Array;
  width: number;
  height: number;
  /** Outside requests refused (or answered with an empty document) instead of being fetched. */
  aborted: number;
  /** The first few refused URLs, shortened, for people debugging a page. */
  blocked: string[];
  error?: string;
}

export interface WorkerReady {
  type: "ready";
  browserVersion: string;
}

export interface WorkerFatal {
  type: "fatal";
  error: string;
}

export interface WorkerOptions {
  executablePath: string;
  concurrency: number;
  /** Serve only the Tailwind rules a static page can match (pixel-identical, much cheaper to style). */
  subsetTailwind: boolean;
  /** Extra milliseconds allowed for capturing the screenshot itself. */
  captureTimeoutMs: number;
  /** Folder for Chromium profiles; the parent removes it when the worker exits, however it exits. */
  profileRoot?: string;
}

export type ToWorker = RenderJob | { type: "close" };
export type FromWorker = RenderReply | WorkerReady | WorkerFatal;
