import { headers } from "next/headers";
import { VIEWER_HEADER, viewerFromHeader, type Viewer } from "@/lib/access/viewer";

/** Who asks for this page, as the gate in front of the studio found (lib/access/http.ts). */
export async function currentViewer(): Promise<Viewer> {
  return viewerFromHeader((await headers()).get(VIEWER_HEADER));
}

export function requestViewer(request: Request): Viewer {
  return viewerFromHeader(request.headers.get(VIEWER_HEADER));
}
