import fs from "node:fs/promises";
import { defaultRenderDir, isRenderId, RenderCache } from "@/lib/scoring/frontend/render-cache";

/** A cached screenshot by its content address (sha256): only ever a PNG the render pool wrote. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isRenderId(id)) return new Response("not a render id", { status: 400 });
  try {
    const png = await fs.readFile(new RenderCache(defaultRenderDir()).pngPath(id));
    return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=31536000, immutable" } });
  } catch {
    return new Response("no such render", { status: 404 });
  }
}
