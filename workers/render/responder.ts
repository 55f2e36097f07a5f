import { classifyRequest, type RequestFacts } from "./intercept";
import type { PlaceholderPhotos } from "./photo";
import { placeholderPng, type ImageSize } from "./placeholder";
import { tailwindCssBytes, tailwindSubsetter } from "./tailwind";

// Decides the answer to every request of one page (rules in intercept.ts) and counts the refused
// ones for the page being rendered. Independent of how requests are intercepted: the pool speaks
// CDP's Fetch domain directly, the benchmark's naive loop goes through Puppeteer.

export interface ResponderOptions {
  /** Serve static pages only the Tailwind rules they can match (see css-subset.ts). */
  subsetTailwind: boolean;
  /** Keep generated placeholder images in memory: pages reuse the same few photo URLs. */
  memoizeImages: boolean;
  /** The published placeholder photo; absent: generated stand-ins for every placeholder. */
  photos?: PlaceholderPhotos;
}

export type Reply =
  | { kind: "continue" }
  | { kind: "abort" }
  | { kind: "fulfill"; status: number; headers: Record<string, string>; body: Buffer };

const MAX_BLOCKED_LISTED = 10;
const IMAGE_MEMO_BYTES = 32 * 1024 * 1024;

/** Generated images shared by every page of the process, least recently used dropped first. */
class ImageMemo {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;

  get(url: string, size: ImageSize): Buffer {
    const hit = this.map.get(url);
    if (hit) {
      this.map.delete(url);
      this.map.set(url, hit);
      return hit;
    }
    const png = placeholderPng(url, size);
    this.map.set(url, png);
    this.bytes += png.length;
    for (const [key, value] of this.map) {
      if (this.bytes <= IMAGE_MEMO_BYTES) break;
      this.map.delete(key);
      this.bytes -= value.length;
    }
    return png;
  }
}

const memo = new ImageMemo();
const EMPTY = Buffer.alloc(0);

export class Responder {
  aborted = 0;
  blocked: string[] = [];
  private html = "";
  private readonly css = new Map<string, Buffer>();

  constructor(private readonly options: ResponderOptions) {}

  /** Starts counting for a new page; its stylesheet subset is made on first request. */
  begin(html: string): void {
    this.html = html;
    this.css.clear();
    this.aborted = 0;
    this.blocked = [];
  }

  /** The answer to one request; a photo is made asynchronously, everything else at once. */
  reply(facts: RequestFacts): Reply | Promise<Reply> {
    const answer = classifyRequest(facts);
    switch (answer.kind) {
      case "continue":
        return answer;
      case "stylesheet":
        return {
          kind: "fulfill",
          status: 200,
          // A document reused through setContent would otherwise keep the sheet it fetched for
          // the previous page, and each page's subset differs.
          headers: {
            "content-type": "text/css; charset=utf-8",
            "access-control-allow-origin": "*",
            ...(this.options.subsetTailwind ? { "cache-control": "no-store" } : {}),
          },
          body: this.stylesheet(answer.file),
        };
      case "image":
        if (answer.photo && this.options.photos) {
          return this.options.photos.image(answer.size).then(
            (body): Reply => ({
              kind: "fulfill",
              status: 200,
              headers: {
                "content-type": "image/jpeg",
                "access-control-allow-origin": "*",
                "cache-control": "public, max-age=31536000, immutable",
              },
              body,
            }),
            (): Reply => ({ kind: "abort" }),
          );
        }
        return {
          kind: "fulfill",
          status: 200,
          // The same URL always gets the same image, so Chromium may keep it (decoded) for the
          // next page that shows it.
          headers: {
            "content-type": "image/png",
            "access-control-allow-origin": "*",
            "cache-control": "public, max-age=31536000, immutable",
          },
          body: this.options.memoizeImages ? memo.get(facts.url, answer.size) : placeholderPng(facts.url, answer.size),
        };
      case "stay":
        this.refuse(facts.url);
        // 204 No Content: the browser keeps the current document, with no error page.
        return { kind: "fulfill", status: 204, headers: {}, body: EMPTY };
      case "empty-document":
        this.refuse(facts.url);
        return { kind: "fulfill", status: 200, headers: { "content-type": "text/html" }, body: EMPTY };
      case "abort":
        this.refuse(facts.url);
        return answer;
    }
  }

  private stylesheet(file: string): Buffer {
    let css = this.css.get(file);
    if (css === undefined) {
      css = this.options.subsetTailwind
        ? Buffer.from(tailwindSubsetter(file).forPage(this.html))
        : tailwindCssBytes(file);
      this.css.set(file, css);
    }
    return css;
  }

  private refuse(url: string): void {
    this.aborted++;
    if (this.blocked.length < MAX_BLOCKED_LISTED) this.blocked.push(url.length > 200 ? `${url.slice(0, 199)}…` : url);
  }
}
