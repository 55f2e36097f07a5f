import { z } from "zod";

// How a frontend page becomes the picture that is scored: the window, how much of the page is
// captured, the browser engine, and what placeholder photos look like. Every render and score
// records one, renders are cached under it, and runs scored under different ones are never
// compared without saying so. It lives here (not in lib/scoring) so that listing runs can name a
// run's profile without loading the renderer.

export const BROWSERS = ["chromium", "firefox"] as const;
export type BrowserName = (typeof BROWSERS)[number];

export const PROFILE_NAMES = ["paper", "studio-1280"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/**
 * "document": the rectangle Firefox reports as documentElement.scrollWidth x scrollHeight in the
 * page's own mode (in quirks mode the content's height, not padded to the window), which is what
 * the published scorer's full-page screenshot (Marionette `full`) captures.
 * "full-page": Chromium's full-page capture, at least the window.
 */
export type Extent = "document" | "full-page";

export interface RenderGeometry {
  /** The window's width in CSS pixels (device scale factor 1). */
  width: number;
  /** The window's height: what `100vh` means while the whole page is captured. */
  viewportHeight: number;
  extent: Extent;
  /**
   * Width a vertical scrollbar takes from the layout when the page is taller than the window
   * (headless Firefox's is 12 px; the page is then laid out and captured that much narrower).
   */
  scrollbar: number;
  /** Captures longer or wider than this are clipped to it (very long pages would exhaust memory). */
  maxWidth: number;
  maxHeight: number;
}

export interface ProfileDefinition {
  geometry: RenderGeometry;
  describe: string;
}

/**
 * paper: the published scorer renders in headless Firefox through Selenium at Firefox's default
 * headless window, 1366x768, whose viewport is 1366x682 (measured: window.innerHeight with
 * Marionette, Firefox ESR 153), and saves Marionette's full screenshot.
 * studio-1280: what the studio captured before profiles existed.
 */
export const PROFILES: Record<ProfileName, ProfileDefinition> = {
  paper: {
    geometry: {
      width: 1366,
      viewportHeight: 682,
      extent: "document",
      scrollbar: 12,
      maxWidth: 4_096,
      maxHeight: 16_384,
    },
    describe:
      "the published scorer's screenshot: 1366x682 viewport (Firefox's 1366x768 headless window), captured to the document's extent as Firefox reports it",
  },
  "studio-1280": {
    geometry: {
      width: 1280,
      viewportHeight: 800,
      extent: "full-page",
      scrollbar: 0,
      maxWidth: 4_096,
      maxHeight: 16_384,
    },
    describe: "the studio's earlier geometry: 1280x800, full page, at least the window",
  },
};

export const DEFAULT_PROFILE: ProfileName = "paper";
export const DEFAULT_BROWSER: BrowserName = "chromium";
/** Runs and scores stored before profiles were recorded were rendered this way. */
export const LEGACY_PROFILE: ProfileName = "studio-1280";

/**
 * What placeholder photos (picsum.photos and the like) were answered with: "generated" (stand-ins
 * drawn from the URL, offline) or "picsum-48:<sha256 of the photo file, 12 hex>" (the published
 * photo, cropped and resized as picsum serves it).
 */
export const placeholdersSchema = z
  .string()
  .regex(/^(generated|picsum-48:[0-9a-f]{12})$/, 'must be "generated" or "picsum-48:<12 hex digits>"');

/** Everything a score's pixels depended on besides the page: recorded with every render and score. */
export const renderProfileSchema = z.object({
  name: z.enum(PROFILE_NAMES),
  browser: z.enum(BROWSERS),
  placeholders: placeholdersSchema,
});
export type RenderProfile = z.infer<typeof renderProfileSchema>;

export const LEGACY_RENDER_PROFILE: RenderProfile = {
  name: LEGACY_PROFILE,
  browser: "chromium",
  placeholders: "generated",
};

/** One line for tables and warnings, e.g. "paper · chromium · generated placeholders". */
export function profileLabel(p: RenderProfile): string {
  const photos = p.placeholders === "generated" ? "generated placeholders" : `placeholder photo ${p.placeholders}`;
  return `${p.name} · ${p.browser} · ${photos}`;
}

export function sameProfile(a: RenderProfile, b: RenderProfile): boolean {
  return a.name === b.name && a.browser === b.browser && a.placeholders === b.placeholders;
}

export function parseProfileName(value: string): ProfileName {
  if ((PROFILE_NAMES as readonly string[]).includes(value)) return value as ProfileName;
  throw new Error(`unknown render profile "${value}": one of ${PROFILE_NAMES.join(", ")}`);
}

export function parseBrowserName(value: string): BrowserName {
  if ((BROWSERS as readonly string[]).includes(value)) return value as BrowserName;
  throw new Error(`unknown browser "${value}": one of ${BROWSERS.join(", ")}`);
}
