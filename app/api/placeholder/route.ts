import { placeholderSize } from "@/lib/colbench/placeholder-url";
import { placeholderPng } from "@/lib/scoring/frontend/placeholder-png";

export const dynamic = "force-dynamic";

/**
 * The picture a placeholder-image URL (picsum.photos, placehold.co, …) is answered with offline:
 * the very image the renderer puts in the page it scores, so a preview shows what was scored.
 */
export async function GET(request: Request) {
  const url = new URL(request.url).searchParams.get("url") ?? "";
  const size = placeholderSize(url);
  if (!size) return Response.json({ error: "url: not a placeholder-image URL the studio answers" }, { status: 404 });
  return new Response(new Uint8Array(placeholderPng(url, size)), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" },
  });
}
