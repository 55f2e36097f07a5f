import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { serialize } from "cookie";
import { refuseBody } from "../http/guard";
import type { Store } from "../store";
import { admit, type GateOptions } from "./gate";
import { securityHeaders } from "./headers";
import { hostAllowed, originRefusal } from "./host";
import type { Decision } from "./policy";
import { PATH_HEADER, PROTO_HEADER, seatCookie, VIEWER_HEADER, type Viewer } from "./viewer";

// The gate in front of the studio's HTTP server: every request is admitted (or not) before
// Next.js sees it, and the pages and routes it lets through learn who asks from one header.

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function page(status: number, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · ColBench Studio</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;max-width:40rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem}code{background:#e7e5e4;padding:0 .25rem;border-radius:.25rem}a{color:#0f766e}button{font:inherit;padding:.4rem 1rem;border-radius:.375rem;border:1px solid #0f766e;background:#0f766e;color:white;cursor:pointer}</style>
</head><body><p><strong>ColBench Studio</strong></p><h1>${escape(title)}</h1>${body}<p style="color:#78716c">HTTP ${status}</p></body></html>`;
}

function who(viewer: Viewer): string {
  if (viewer.kind === "user") return `${viewer.name} (${viewer.role})`;
  if (viewer.kind === "seats") return "a seat link";
  return "nobody";
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, title: string, message: string, html: string = `<p>${escape(message)}</p>`): void {
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

/** Returns the handler to put in front of Next's: it admits or refuses, then hands over. */
export function gated(store: Store, options: HttpGateOptions, next: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
      const refusal = site && site !== "same-origin" ? `cross-site request refused (Sec-Fetch-Site: ${site})` : originRefusal(origin, { host: host!, scheme }, options.hosts);
      if (refusal) return answer(req, res, 403, "Refused", `${refusal}: changes come only from the studio's own pages`);
    }
    // Next's image optimizer fetches the URL it is given from inside the process, past this gate
    // with no viewer; the studio's images (renders, placeholders) need no resizing, so it is gone
    // (next.config.ts: images.unoptimized) and its path answers nothing.
    if (path === "/_next/image") return answer(req, res, 404, "Not here", "the studio has no image optimizer: images are served as they are");
    let admission;
    try {
      admission = await admit(store, { method, url: req.url ?? "/", cookie: req.headers.cookie }, options);
    } catch (error) {
      return answer(req, res, 503, "Unavailable", `cannot check who is asking: ${(error as Error).message}`);
    }
    if (admission.fromKey) {
      // A seat link's key goes into an httpOnly cookie for that seat, and out of the address bar
      // (and so out of history and any Referer) at once.
      const { episodeId, seat, token } = admission.fromKey;
      const url = new URL(req.url ?? "/", "http://studio.invalid");
      url.searchParams.delete("key");
      res.statusCode = 303;
      res.setHeader("Set-Cookie", serialize(seatCookie(episodeId, seat), token, { httpOnly: true, sameSite: "strict", path: "/", maxAge: 30 * 24 * 3600, secure: scheme === "https" }));
      res.setHeader("Location", url.pathname + url.search);
      res.setHeader("Cache-Control", "no-store");
      res.end();
      return;
    }
    if (admission.decision !== "allow") return refuse(req, res, admission.decision, admission.viewer);
    // A write to the API carries JSON of a bounded size, whichever route it is for (the System
    // page's backup button is a form post to a page, so pages are not held to it).
    if (path.startsWith("/api/")) {
      const refusal = refuseBody(method, (name) => req.headers[name] as string | undefined);
      if (refusal) return answer(req, res, refusal.status, refusal.status === 413 ? "Too large" : "Not JSON", refusal.error);
    }
    req.headers[VIEWER_HEADER] = JSON.stringify(admission.viewer);
    req.headers[PATH_HEADER] = path;
    req.headers[PROTO_HEADER] = scheme;
    await next(req, res);
  };
}
