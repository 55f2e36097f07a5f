import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "../store";
import { admit, type GateOptions } from "./gate";
import type { Decision } from "./policy";
import { PATH_HEADER, VIEWER_HEADER, type Viewer } from "./viewer";

// The gate in front of the studio's HTTP server: every request is admitted (or not) before
// Next.js sees it, and the pages and routes it lets through learn who asks from one header.

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(status: number, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · ColBench Studio</title>
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;max-width:40rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem}code{background:#e7e5e4;padding:0 .25rem;border-radius:.25rem}a{color:#0f766e}</style>
</head><body><p><strong>ColBench Studio</strong></p><h1>${escape(title)}</h1>${body}<p style="color:#78716c">HTTP ${status}</p></body></html>`;
}

function who(viewer: Viewer): string {
  if (viewer.kind === "user") return `${viewer.name} (${viewer.role})`;
  if (viewer.kind === "seats") return "a seat link";
  return "nobody";
}

function refuse(req: IncomingMessage, res: ServerResponse, decision: Exclude<Decision, "allow">, viewer: Viewer): void {
  const status = decision === "signin" ? 401 : 403;
  const api = (req.url ?? "").startsWith("/api/");
  const message =
    decision === "signin"
      ? "sign in first: open the sign-in link an admin made for you (`colbench users add NAME --role ROLE`)"
      : `${who(viewer)} may not open this`;
  res.statusCode = status;
  if (api) {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ error: message }));
    return;
  }
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(
    decision === "signin"
      ? page(status, "Sign in", `<p>This studio is shared: open the sign-in link an admin made for you. An admin makes one with <code>colbench users add NAME --role annotator</code> or on the Users page.</p>`)
      : page(status, "Not for this account", `<p>You are signed in as ${escape(who(viewer))}, which may not open <code>${escape((req.url ?? "").split("?")[0]!)}</code>. <a href="/">Back to the studio</a>.</p>`),
  );
}

/** Returns the handler to put in front of Next's: it admits or refuses, then hands over. */
export function gated(store: Store, options: GateOptions, next: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only the gate says who is asking, and for what.
    delete req.headers[VIEWER_HEADER];
    delete req.headers[PATH_HEADER];
    let admission;
    try {
      admission = await admit(store, { method: req.method ?? "GET", url: req.url ?? "/", cookie: req.headers.cookie }, options);
    } catch (error) {
      res.statusCode = 503;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ error: `cannot check who is asking: ${(error as Error).message}` }));
      return;
    }
    if (admission.cookies.length) res.setHeader("Set-Cookie", admission.cookies);
    if (admission.decision !== "allow") return refuse(req, res, admission.decision, admission.viewer);
    req.headers[VIEWER_HEADER] = JSON.stringify(admission.viewer);
    req.headers[PATH_HEADER] = (req.url ?? "/").split("?")[0]!;
    await next(req, res);
  };
}
