import { serialize } from "cookie";
import { confirmedField, confirmForm, escapeHtml as escape, page } from "@/lib/access/http";
import { hashToken } from "@/lib/access/tokens";
import { signIn } from "@/lib/access/users";
import { PROTO_HEADER, SESSION_COOKIE } from "@/lib/access/viewer";
import { requestViewer } from "@/app/_lib/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const html = (status: number, title: string, body: string, headers: Record<string, string> = {}) =>
  new Response(page(status, title, body), {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      ...headers,
    },
  });

const NO_LINK =
  "<p>Open the sign-in link an admin made for you (<code>colbench users add NAME --role annotator</code>, <code>colbench users link NAME</code>, or the Users page).</p>";

const WHY: Record<"used" | "expired" | "unknown", string> = {
  used: "This link was used already: a sign-in link works once. Ask an admin for a new one (<code>colbench users link NAME</code>).",
  expired: "This link expired before it was used. Ask an admin for a new one (<code>colbench users link NAME</code>).",
  unknown: "It was replaced, or its person was disabled. Ask an admin for a new one.",
};

/**
 * A sign-in link (`/signin?token=…`) only shows whom it signs in and asks to confirm: a bare GET
 * changes no session, so a foreign page that sends someone's browser here signs nobody in or out.
 */
export async function GET(request: Request) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return html(401, "Sign in", NO_LINK);
  const state = await (await getStore()).users.linkState(hashToken(token));
  if (state.state !== "open") return html(401, "This link opens nothing", `<p>${WHY[state.state]}</p>`);
  const viewer = requestViewer(request);
  const now =
    viewer.kind === "user"
      ? `<p>This browser is signed in as <strong>${escape(viewer.name)}</strong> now; continuing replaces that.</p>`
      : "";
  return html(
    200,
    `Sign in as ${escape(state.user.name)}?`,
    `<p>${escape(state.user.role)}. The link works once: after this, it opens nothing.</p>${now}` +
      confirmForm({
        action: "/signin",
        name: "token",
        value: token,
        button: `Sign in as ${state.user.name}`,
        testId: "confirm-signin",
      }),
  );
}

/**
 * The confirmation: uses the link (once) and starts a session. The gate lets this POST through only
 * from the studio's own pages (Origin, Sec-Fetch-Site), so no other site can sign a browser in.
 */
export async function POST(request: Request) {
  const token = confirmedField(request.headers.get("content-type") ?? "", await request.text(), "token");
  if (!token) return html(400, "Sign in", NO_LINK);
  const signed = await signIn(await getStore(), token);
  if (!signed)
    return html(
      401,
      "This link opens nothing",
      `<p>${WHY.used.replace("was used already", "was used already, expired or was replaced")}</p>`,
    );
  const secure = request.headers.get(PROTO_HEADER) === "https";
  const cookie = serialize(SESSION_COOKIE, signed.session, {
    httpOnly: true,
    sameSite: "strict",
    path: "/",
    expires: signed.expires,
    secure,
  });
  // A same-origin POST answered with a redirect: the Strict cookie goes with the next request.
  return new Response(null, {
    status: 303,
    headers: { Location: "/", "Set-Cookie": cookie, "Cache-Control": "no-store" },
  });
}
