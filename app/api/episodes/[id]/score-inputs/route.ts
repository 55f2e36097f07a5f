import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

/** What a browser needs to score an episode's agent turns: prompts, outputs, candidates and the final answer the critic is told. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  // The critic's prompt carries the task's final answer: hidden information.
  if (!seesHidden(requestViewer(request)))
    return Response.json(
      { error: "scoring inputs hold hidden information: researchers and admins only" },
      { status: 403 },
    );
  const id = Number.parseInt((await params).id, 10);
  const inputs = Number.isSafeInteger(id) ? await (await getStore()).sweet.episodeToScore(id) : null;
  if (!inputs) return Response.json({ error: "no such episode" }, { status: 404 });
  return Response.json(inputs, { headers: { "Cache-Control": "no-store" } });
}
