import { parse, serialize } from "cookie";
import { hashToken } from "@/lib/access/tokens";
import { PROTO_HEADER, SESSION_COOKIE } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";

/** Ends this browser's session (the user's other sessions stay). */
export async function POST(request: Request) {
  const session = parse(request.headers.get("cookie") ?? "")[SESSION_COOKIE];
  if (session) await (await getStore()).sessions.delete(hashToken(session));
  return Response.json(
    { ok: true },
    {
      headers: {
        "Set-Cookie": serialize(SESSION_COOKIE, "", {
          httpOnly: true,
          sameSite: "strict",
          path: "/",
          maxAge: 0,
          secure: request.headers.get(PROTO_HEADER) === "https",
        }),
      },
    },
  );
}
