import { NextResponse, type NextRequest } from "next/server";
import { refuseMutation } from "@/lib/http/guard";
import { PROTO_HEADER } from "@/lib/access/viewer";

// Runs before every API route: cross-site and non-JSON requests that would change something are
// refused here, once, instead of in each route.
export function proxy(request: NextRequest) {
  // The origin the browser used: its Host header (Next's own URL may name the host differently) and
  // the scheme the gate found (https behind a TLS proxy the operator trusts).
  const host = request.headers.get("host");
  const proto = request.headers.get(PROTO_HEADER);
  const origin = host ? `${proto ? `${proto}:` : request.nextUrl.protocol}//${host}` : request.nextUrl.origin;
  const refusal = refuseMutation({ method: request.method, origin, headers: request.headers });
  if (refusal) return NextResponse.json({ error: refusal.error }, { status: refusal.status });
  return NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
