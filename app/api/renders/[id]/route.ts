import fs from "node:fs/promises";
import { requestViewer } from "@/app/_lib/viewer";
import { mayViewRender } from "@/lib/access/renders";
import {
  defaultRenderDir,
  isRenderId,
  RenderCache,
  renderId,
  type RenderSidecar,
} from "@/lib/scoring/frontend/render-cache";
import { getStore } from "@/lib/store";
import { answersArePages } from "@/app/_lib/answer-kind";

export const dynamic = "force-dynamic";

/** The key a render was made under, from its sidecar, so a task's target can be hashed the same way. */
function keyOf(meta: RenderSidecar) {
  const major = /\/(\d+)\./.exec(meta.browser)?.[1] ?? meta.browser;
  return { settings: meta.settings, browser: `${meta.profile?.browser ?? "chromium"}/${major}` };
}

/**
 * A cached screenshot by its content address (sha256): only ever a PNG the render pool wrote, and
 * only to a viewer who may see it (lib/access/renders.ts): a target's render is hidden information.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isRenderId(id)) return new Response("not a render id", { status: 400 });
  const cache = new RenderCache(defaultRenderDir());
  const store = await getStore();
  const allowed = await mayViewRender(requestViewer(request), {
    answerEpisodes: () => store.renders.answerEpisodes(id),
    targetInMembersQueue: (userId) => store.renders.targetInMembersQueue(id, userId),
    isTargetOf: async (episodeId) => {
      const [target, cached] = await Promise.all([store.seats.target(episodeId), cache.get(id)]);
      return Boolean(
        target &&
        cached &&
        answersArePages(target.benchmark) &&
        renderId(target.groundTruth, keyOf(cached.meta)) === id,
      );
    },
  });
  // The same answer as a missing render: whether a target was ever rendered is not for this viewer either.
  if (!allowed) return new Response("no such render", { status: 404, headers: { "Cache-Control": "no-store" } });
  try {
    const png = await fs.readFile(cache.pngPath(id));
    // Private: who may see it depends on who asks, so no shared cache keeps it.
    return new Response(new Uint8Array(png), {
      headers: { "Content-Type": "image/png", "Cache-Control": "private, max-age=31536000, immutable" },
    });
  } catch {
    return new Response("no such render", { status: 404 });
  }
}
