import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { serialize } from "cookie";
import { refuseBody } from "../http/guard";
import type { Store } from "../store";
import { admit, type GateOptions } from "./gate";
import { securityHeaders } from "./headers";
import { hostAllowed, originRefusal } from "./host";
import type { Decision } from "./policy";
import { SEAT_WORDS, seatOfPath } from "./seat-links";
import { hashToken } from "./tokens";
import { PATH_HEADER, PROTO_HEADER, seatCookie, VIEWER_HEADER, type SeatName, type Viewer } from "./viewer";

// The gate in front of the studio's HTTP server: every request is admitted (or not) before
// Next.js sees it, and the pages and routes it lets through learn who asks from one header.

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const escape = escapeHtml;

export function page(status: number, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · ColBench Studio</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;max-width:40rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem}code{background:#e7e5e4;padding:0 .25rem;border-radius:.25rem}a{color:#0f766e}button{font:inherit;padding:.4rem 1rem;border-radius:.375rem;border:1px solid #0f766e;background:#0f766e;color:white;cursor:pointer}</style>
</head><body><p><strong>ColBench Studio</strong></p><h1>${escape(title)}</h1>${body}<p style="color:#78716c">HTTP ${status}</p></body></html>`;
}

/**
 * The question a link asks before it changes who this browser is (a sign-in link, a seat link): its
 * GET shows this form and changes nothing; only the form's POST, which the gate lets through from
 * the studio's own pages alone, does. So a foreign page that sends a browser to the link, or posts
 * it, changes no one's session or seat. `forget` drops the secret's parameter from the address bar
 * (and the tab's history entry) while the form keeps it.
 */
export function confirmForm(options: {
  action: string;
  name: string;
  value: string;
  button: string;
  testId: string;
  forget?: boolean;
}): string {
  const scrub = options.forget
    ? `<script>(function(){var u=new URL(location.href);u.searchParams.delete(${JSON.stringify(options.name)});history.replaceState(null,"",u.pathname+u.search+u.hash)})()</script>`
    : "";
  return `<form method="post" action="${escape(options.action)}"><input type="hidden" name="${escape(options.name)}" value="${escape(options.value)}"><button type="submit" data-testid="${escape(options.testId)}">${escape(options.button)}</button></form>${scrub}`;
}

/** The field a confirming POST carries: the studio's form sends it urlencoded, a script may send JSON. */
export function confirmedField(contentType: string, body: string, name: string): string | null {
  let value: unknown = null;
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) value = new URLSearchParams(body).get(name);
  else if (/^application\/json/i.test(contentType)) {
    try {
      value = (JSON.parse(body) as Record<string, unknown> | null)?.[name];
    } catch {
      value = null;
    }
  }
  return typeof value === "string" && value ? value : null;
}

function who(viewer: Viewer): string {
  if (viewer.kind === "user") return `${viewer.name} (${viewer.role})`;
  if (viewer.kind === "seats") return "a seat link";
  return "nobody";
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  html: string = `<p>${escape(message)}</p>`,
): void {
  res.statusCode = status;
  res.setHeader("Cache-Control", "no-store");
  if ((req.url ?? "").startsWith("/api/")) {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ error: message }));
    return;
  }
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(page(status, title, html));
}

function refuse(req: IncomingMessage, res: ServerResponse, decision: Exclude<Decision, "allow">, viewer: Viewer): void {
  if (decision === "signin") {
    return answer(
      req,
      res,
      401,
      "Sign in",
      "sign in first: open the sign-in link an admin made for you (`colbench users add NAME --role ROLE`)",
      `<p>This studio is shared: open the sign-in link an admin made for you. An admin makes one with <code>colbench users add NAME --role annotator</code> (or <code>colbench users link NAME</code>) or on the Users page.</p>`,
    );
  }
  answer(
    req,
    res,
    403,
    "Not for this account",
    `${who(viewer)} may not open this`,
    `<p>You are signed in as ${escape(who(viewer))}, which may not open <code>${escape((req.url ?? "").split("?")[0]!)}</code>. <a href="/">Back to the studio</a>.</p>`,
  );
}

const SEAT_LINK_WHY: Record<"expired" | "revoked" | "unknown", string> = {
  expired: "This seat link has expired. Ask whoever sent it for a new one.",
  revoked: "This seat link was revoked. Ask whoever sent it for a new one.",
  unknown:
    "This link opens no seat here: its key is not one this studio made for this seat, or it was mistyped. Ask whoever sent it for a new one.",
};

/** The address without its key: where a taken seat (or a signed-in person) goes on. */
function keyless(url: URL): string {
  const rest = new URL(url.href);
  rest.searchParams.delete("key");
  return rest.pathname + rest.search;
}

/**
 * A seat link opened (GET): which seat it would open and until when, and the question. No cookie
 * is set here, so a foreign page that navigates a browser to a link plants no seat in it.
 */
async function offerSeat(
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
  seat: { episodeId: number; seat: SeatName },
  key: string,
  url: URL,
): Promise<void> {
  const state = await store.seats.keyState(hashToken(key));
  if (state.state !== "open" || state.episodeId !== seat.episodeId || state.seat !== seat.seat) {
    const why = SEAT_LINK_WHY[state.state === "open" ? "unknown" : state.state];
    return answer(req, res, 401, "This link opens nothing", why);
  }
  const until = state.expiresAt.toISOString().slice(0, 16).replace("T", " ");
  const words = SEAT_WORDS[seat.seat];
  return answer(
    req,
    res,
    200,
    `Take ${words} of episode #${seat.episodeId}?`,
    `this link opens ${words} of episode ${seat.episodeId}: confirm with a POST of its key from this page`,
    `<p>This link opens ${words} of episode #${seat.episodeId} in this browser, and nothing else, until ${until} UTC.</p>` +
      confirmForm({
        action: keyless(url),
        name: "key",
        value: key,
        button: `Take ${words}`,
        testId: "confirm-seat",
        forget: true,
      }),
  );
}

/** A small form body (a seat link's confirmation), or null past `limit` bytes. */
function readSmallBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * The confirmation (POST from the studio's own page: the write check above refused any other):
 * the key is taken for that seat's httpOnly cookie, which lives no longer than the key, and the
 * browser goes on to the seat's address, which never carries the key.
 */
async function takeSeat(
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
  seat: { episodeId: number; seat: SeatName },
  url: URL,
  scheme: "http" | "https",
): Promise<void> {
  const body = await readSmallBody(req, 4096);
  if (body === null) return answer(req, res, 413, "Too large", "a seat link's confirmation carries its key only");
  const key = confirmedField(String(req.headers["content-type"] ?? ""), body, "key");
  if (!key) return answer(req, res, 400, "Take a seat", "open the seat link you were sent: its page asks to confirm");
  const state = await store.seats.open(hashToken(key), seat);
  if (state.state !== "open") return answer(req, res, 401, "This link opens nothing", SEAT_LINK_WHY[state.state]);
  res.statusCode = 303;
  res.setHeader(
    "Set-Cookie",
    serialize(seatCookie(seat.episodeId, seat.seat), key, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      expires: state.expiresAt,
      secure: scheme === "https",
    }),
  );
  res.setHeader("Location", keyless(url));
  res.setHeader("Cache-Control", "no-store");
  res.end();
}

export interface HttpGateOptions extends GateOptions {
  /** Every name the studio answers to (lib/access/host.ts: studioHostNames). */
  hosts: Set<string>;
  /** Believe X-Forwarded-Proto (the operator runs the studio behind a TLS proxy: `--trust-proxy`). */
  trustProxy?: boolean;
  /** `colbench serve --dev`: the page policy lets the dev server's eval and socket through. */
  dev?: boolean;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** "https" when the request came over TLS, directly or (when the operator trusts it) through a proxy. */
export function requestScheme(req: IncomingMessage, trustProxy = false): "http" | "https" {
  if ((req.socket as TLSSocket).encrypted) return "https";
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return trustProxy && first === "https" ? "https" : "http";
}

/**
 * Returns the handler to put in front of Next's: it admits or refuses, then hands over. Node's http
 * server drops a listener's promise, so a failure anywhere in here (Next's handler included) is
 * answered with a 500 and logged, not left as an unhandled rejection that ends the process.
 */
export function gated(
  store: Store,
  options: HttpGateOptions,
  next: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const gate = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only the gate says who is asking, for what, and over which scheme.
    delete req.headers[VIEWER_HEADER];
    delete req.headers[PATH_HEADER];
    delete req.headers[PROTO_HEADER];
    const path = (req.url ?? "/").split("?")[0]!;
    for (const [name, value] of Object.entries(securityHeaders(path, { dev: options.dev }))) res.setHeader(name, value);
    // A name the studio does not answer to: DNS rebinding, or a proxy the operator has not named.
    const host = req.headers.host;
    if (!hostAllowed(host, options.hosts)) {
      return answer(
        req,
        res,
        421,
        "Not this studio's name",
        `this studio does not answer to the name ${JSON.stringify(host ?? "")}: start it with --allowed-host NAME (or COLBENCH_ALLOWED_HOSTS) to add one, e.g. a reverse proxy's`,
      );
    }
    const scheme = requestScheme(req, options.trustProxy);
    if (!options.trustProxy) {
      // Next.js builds URLs from these; nobody may claim a scheme or host the gate did not check.
      delete req.headers["x-forwarded-proto"];
      delete req.headers["x-forwarded-host"];
    }
    const method = (req.method ?? "GET").toUpperCase();
    if (!SAFE.has(method)) {
      const site = req.headers["sec-fetch-site"];
      // Under Referrer-Policy: no-referrer a browser sends "Origin: null" with a form on the page's
      // own origin; its Sec-Fetch-Site (which no page can set) then says where it came from. A
      // sandboxed frame's form is "cross-site", so the null of an opaque origin gets no pass.
      const origin = req.headers.origin === "null" && site === "same-origin" ? undefined : req.headers.origin;
      const refusal =
        site && site !== "same-origin"
          ? `cross-site request refused (Sec-Fetch-Site: ${site})`
          : originRefusal(origin, { host: host!, scheme }, options.hosts);
      if (refusal) return answer(req, res, 403, "Refused", `${refusal}: changes come only from the studio's own pages`);
    }
    // Next's image optimizer fetches the URL it is given from inside the process, past this gate
    // with no viewer; the studio's images (renders, placeholders) need no resizing, so it is gone
    // (next.config.ts: images.unoptimized) and its path answers nothing.
    if (path === "/_next/image")
      return answer(req, res, 404, "Not here", "the studio has no image optimizer: images are served as they are");
    const url = new URL(req.url ?? "/", "http://studio.invalid");
    const seatPage = seatOfPath(path);
    if (seatPage && method === "POST") {
      try {
        return await takeSeat(store, req, res, seatPage, url, scheme);
      } catch (error) {
        return answer(req, res, 503, "Unavailable", `cannot check the seat link: ${(error as Error).message}`);
      }
    }
    let admission;
    try {
      admission = await admit(store, { method, url: req.url ?? "/", cookie: req.headers.cookie }, options);
    } catch (error) {
      return answer(req, res, 503, "Unavailable", `cannot check who is asking: ${(error as Error).message}`);
    }
    const key = seatPage && (method === "GET" || method === "HEAD") ? url.searchParams.get("key") : null;
    if (seatPage && key !== null) {
      const { viewer } = admission;
      if (viewer.kind === "user" || viewer.kind === "local") {
        if (admission.decision !== "allow") return refuse(req, res, admission.decision, viewer);
        // Signed in: the seat opens as that person, so the key only leaves the address bar.
        res.statusCode = 303;
        res.setHeader("Location", keyless(url));
        res.setHeader("Cache-Control", "no-store");
        res.end();
        return;
      }
      try {
        return await offerSeat(store, req, res, seatPage, key, url);
      } catch (error) {
        return answer(req, res, 503, "Unavailable", `cannot check the seat link: ${(error as Error).message}`);
      }
    }
    if (admission.decision !== "allow") return refuse(req, res, admission.decision, admission.viewer);
    // A write to the API carries JSON of a bounded size, whichever route it is for (the System
    // page's backup button is a form post to a page, so pages are not held to it).
    if (path.startsWith("/api/")) {
      const refusal = refuseBody(method, (name) => req.headers[name] as string | undefined);
      if (refusal)
        return answer(req, res, refusal.status, refusal.status === 413 ? "Too large" : "Not JSON", refusal.error);
    }
    req.headers[VIEWER_HEADER] = JSON.stringify(admission.viewer);
    req.headers[PATH_HEADER] = path;
    req.headers[PROTO_HEADER] = scheme;
    await next(req, res);
  };
  return (req, res) => {
    gate(req, res).catch((error: unknown) => failedRequest(req, res, error));
  };
}

function failedRequest(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  console.error(`${req.method ?? "GET"} ${req.url ?? "/"} failed:`, error);
  if (res.headersSent) res.destroy();
  else answer(req, res, 500, "Server error", "the studio could not answer this request (its log says why)");
}
