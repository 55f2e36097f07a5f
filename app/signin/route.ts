import { serialize } from "cookie";
import { signIn } from "@/lib/access/users";
import { SESSION_COOKIE } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const html = (status: number, title: string, body: string, headers: Record<string, string> = {}) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · ColBench Studio</title>${status === 200 ? '<meta http-equiv="refresh" content="0;url=/">' : ""}
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;max-width:40rem;margin:4rem auto;padding:0 1rem}a{color:#0f766e}code{background:#e7e5e4;padding:0 .25rem}</style></head>
<body><p><strong>ColBench Studio</strong></p><h1>${title}</h1>${body}</body></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", ...headers } },
  );

/**
 * A sign-in link (`/signin?token=…`) starts a session. The page answers itself and then moves on
 * to the studio from this origin, so the SameSite=Strict cookie goes with that first request.
 */
export async function GET(request: Request) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return html(401, "Sign in", "<p>Open the sign-in link an admin made for you (<code>colbench users add NAME --role annotator</code>, or the Users page).</p>");
  const signed = await signIn(await getStore(), token);
  if (!signed) return html(401, "This link opens nothing", "<p>It was replaced, or its user was disabled. Ask an admin for a new one.</p>");
  const cookie = serialize(SESSION_COOKIE, signed.session, { httpOnly: true, sameSite: "strict", path: "/", expires: signed.expires });
  const name = signed.user.name.replace(/[&<>"']/g, "");
  return html(200, `Signed in as ${name}`, `<p>${signed.user.role}. <a href="/">Open the studio</a>.</p>`, { "Set-Cookie": cookie });
}
