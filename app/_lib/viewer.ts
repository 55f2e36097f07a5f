import { headers } from "next/headers";
import { PATH_HEADER, VIEWER_HEADER, viewerFromHeader, type Viewer } from "@/lib/access/viewer";

/** Who asks for this page, as the gate in front of the studio found (lib/access/http.ts). */
export async function currentViewer(): Promise<Viewer> {
  return viewerFromHeader((await headers()).get(VIEWER_HEADER));
}

export function requestViewer(request: Request): Viewer {
  return viewerFromHeader(request.headers.get(VIEWER_HEADER));
}

/** The path this page was asked for (set by the gate; "" when the studio runs without it). */
export async function currentPath(): Promise<string> {
  return (await headers()).get(PATH_HEADER) ?? "";
}
