// Placeholder-image services answer with a picture of the size named in the URL; offline the studio
// draws its own of that size (lib/scoring/frontend/placeholder-png.ts). The size is what decides
// the page's layout. Plain URL parsing, so the browser's previews use the very same rule.

export interface ImageSize {
  width: number;
  height: number;
}

const MAX_SIDE = 4_000;
const MAX_PIXELS = 6_000_000;

function clampSize(width: number, height: number): ImageSize | null {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width < 1 || height < 1) return null;
  let w = Math.min(Math.round(width), MAX_SIDE);
  let h = Math.min(Math.round(height), MAX_SIDE);
  if (w * h > MAX_PIXELS) {
    const f = Math.sqrt(MAX_PIXELS / (w * h));
    w = Math.max(1, Math.floor(w * f));
    h = Math.max(1, Math.floor(h * f));
  }
  return { width: w, height: h };
}

function num(s: string | undefined): number {
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : Number.NaN;
}

/** "600x400", "600X400" or "600" (a square). */
function dims(segment: string | undefined): [number, number] | null {
  if (!segment) return null;
  const m = /^(\d+)(?:[xX](\d+))?(?:\.\w+)?$/.exec(segment);
  if (!m) return null;
  const w = Number(m[1]);
  return [w, m[2] ? Number(m[2]) : w];
}

/** The "/W/H" or "/W" at the start of `segments` (extensions such as ".jpg" allowed on the last). */
function widthHeight(segments: string[]): [number, number] | null {
  // "200.jpg", "200-learning": the leading number is the size.
  const strip = (s: string | undefined) => (s === undefined ? undefined : /^\d+/.exec(s)?.[0]);
  const w = num(strip(segments[0]));
  if (Number.isNaN(w)) return null;
  const h = num(strip(segments[1]));
  return [w, Number.isNaN(h) ? w : h];
}

/** The size a placeholder service would answer `url` with, or null when `url` is no such service. */
export function placeholderSize(url: string): ImageSize | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const host = u.hostname.toLowerCase().replace(/^www\./, "");
  const seg = u.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  let wh: [number, number] | null = null;
  if (host === "picsum.photos" || host.endsWith(".picsum.photos")) {
    // /W/H, /id/N/W/H, /seed/S/W/H
    const rest = seg[0] === "id" || seg[0] === "seed" ? seg.slice(2) : seg;
    wh = widthHeight(rest);
  } else if (
    [
      "via.placeholder.com",
      "placeholder.com",
      "placehold.co",
      "placehold.it",
      "dummyimage.com",
      "fakeimg.pl",
      "placeimg.com",
    ].includes(host)
  ) {
    wh = dims(seg[0]) ?? widthHeight(seg);
  } else if (
    [
      "placekitten.com",
      "loremflickr.com",
      "placebear.com",
      "baconmockup.com",
      "fillmurray.com",
      "placecage.com",
      "lorempixel.com",
    ].includes(host)
  ) {
    wh = widthHeight(seg[0] === "g" ? seg.slice(1) : seg);
  } else if (host === "source.unsplash.com") {
    for (const s of seg) wh ??= s.includes("x") ? dims(s) : null;
    wh ??= [1080, 720];
  } else if (host === "images.unsplash.com") {
    const w = num(u.searchParams.get("w") ?? undefined);
    const h = num(u.searchParams.get("h") ?? undefined);
    wh = Number.isNaN(w) ? [1080, 720] : [w, Number.isNaN(h) ? Math.round((w * 2) / 3) : h];
  }
  return wh ? clampSize(wh[0], wh[1]) : null;
}
