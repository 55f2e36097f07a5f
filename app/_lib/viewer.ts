import { headers } from "next/headers";
import { PATH_HEADER, PROTO_HEADER, VIEWER_HEADER, viewerFromHeader, type Viewer } from "@/lib/access/viewer";

/** Who asks for this page, as the gate in front of the studio found (lib/access/http.ts). */
export async function currentViewer(): Promise<Viewer> {
  return viewerFromHeader((await headers()).get(VIEWER_HEADER));
}

export function requestViewer(request: Request): Viewer {
  return viewerFromHeader(request.headers.get(VIEWER_HEADER));
}

/** The studio's origin as this request reached it: the Host the gate checked, the scheme it found. */
export function studioOrigin(request: Request): string {
  const host = request.headers.get("host");
  const proto = request.headers.get(PROTO_HEADER) ?? "http";
  return host ? `${proto}://${host}` : new URL(request.url).origin;
}

/** The path this page was asked for (set by the gate; "" when the studio runs without it). */
export async function currentPath(): Promise<string> {
  return (await headers()).get(PATH_HEADER) ?? "";
}
