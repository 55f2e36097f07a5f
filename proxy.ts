import { NextResponse, type NextRequest } from "next/server";
import { refuseMutation } from "@/lib/http/guard";

// Runs before every API route: cross-site and non-JSON requests that would change something are
// refused here, once, instead of in each route.
export function proxy(request: NextRequest) {
  const refusal = refuseMutation({ method: request.method, origin: request.nextUrl.origin, headers: request.headers });
  if (refusal) return NextResponse.json({ error: refusal.error }, { status: refusal.status });
  return NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
