// Messages between lib/scoring/frontend/render.ts (the client, inside the studio or CLI) and
// workers/render/main.ts (a separate Node process that owns Chromium). Untrusted HTML only ever
// crosses this boundary as a string; it is parsed and run on the worker's side.

import {
  DEFAULT_PROFILE,
  PROFILES,
  type BrowserName,
  type ProfileName,
  type RenderGeometry,
} from "../../colbench/render-profile";

/**
 * Everything that changes the pixels of a render besides the page and the browser: the profile's
 * geometry (lib/colbench/render-profile.ts) and what placeholder photos are. Part of the content address.
 */
export interface RenderSettings extends RenderGeometry {
  profile: ProfileName;
  /** "generated" or "picsum-48:<sha256 prefix>" (see placeholdersSchema). */
  placeholders: string;
}

export function settingsFor(profile: ProfileName, placeholders = "generated"): RenderSettings {
  return { profile, ...PROFILES[profile].geometry, placeholders };
}

export const DEFAULT_RENDER_SETTINGS: RenderSettings = settingsFor(DEFAULT_PROFILE);

/**
 * Bumped whenever what a render shows may change: the worker's answers to outside requests
 * (stylesheets, placeholder images), or when it captures (2: after every resource has loaded,
 * so a render cached by revision 1 may lack a background picture; 3: render profiles, the
 * document extent and the engine's name in the key; 4: flex and grid bodies measured by the height
 * their content gives them; 5: a capture is "ok" only once checked (RenderVerification), so a render
 * cached by revision 4 may be a neighbour's blank and is never read again).
 */
export const RENDERER_REVISION = 5;

/**
 * How a render came to be called "ok": the checks the worker made after capturing it, each of which
 * a page left pending by a neighbour in the same reused document (a meta refresh's timer, a
 * navigation on its way) once failed silently. Kept in the cache's record beside the picture.
 */
export interface RenderVerification {
  /** RENDERER_REVISION of the worker that checked it: a cached render is read only under the same one. */
  revision: number;
  /** The capture was taken of the very document the page was written into: nothing navigated it away before the check. */
  document: "same";
  /** The page's extent measured again after the capture, clipped to the profile's maximum: the picture is no smaller. */
  extent: { width: number; height: number };
  /** "found": the page's markup has something in its body and so did the document; "not expected": the markup has nothing there (or scripts that decide). */
  content: "found" | "not expected";
}

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
  /** Set when the page was rendered a second time, in a fresh browser: how the first attempt ended. */
  retried?: RenderAttempt;
  /** How an "ok" capture was checked; a reply that says "ok" without it is not believed. */
  verified?: RenderVerification;
}

/** How a render attempt that did not count ended. */
export interface RenderAttempt {
  status: RenderStatus;
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
  browser: BrowserName;
  executablePath: string;
  /**
   * The published placeholder photo (picsum id 48) to answer placeholder requests with, cropped
   * and resized as picsum serves it; absent: generated stand-ins.
   */
  placeholderPhoto?: string;
  /**
   * Bring the loopback interface of the worker's own network namespace up: Firefox is driven
   * over a WebSocket on 127.0.0.1 (Chromium over a pipe needs none). Nothing else listens there.
   */
  loopbackUp?: boolean;
  concurrency: number;
  /** Serve only the Tailwind rules a static page can match (pixel-identical, much cheaper to style). */
  subsetTailwind: boolean;
  /** Extra milliseconds allowed for capturing the screenshot itself. */
  captureTimeoutMs: number;
  /** Private memory a lane's browser (all its processes) may hold while it renders a page; past it the browser is killed. */
  memoryLimitBytes?: number;
  /** Folder for Chromium profiles; the parent removes it when the worker exits, however it exits. */
  profileRoot?: string;
}

export type ToWorker = RenderJob | { type: "close" };
export type FromWorker = RenderReply | WorkerReady | WorkerFatal;
