import { getStore } from "@/lib/store";
import { getRunManager } from "@/lib/runs/active";

export const dynamic = "force-dynamic";

/**
 * Plays a failed episode again: its run resumes in the studio, taking the episode up from its last
 * stored turn. Seat links may retry their own episode (the gate checks which).
 */
export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const episode = await (await getStore()).episodes.ref(episodeId);
  if (!episode) return Response.json({ error: `no episode ${(await params).id}` }, { status: 404 });
  if (episode.runId === null)
    return Response.json({ error: `episode ${episodeId} was imported and is not played here` }, { status: 409 });
  if (episode.status !== "failed")
    return Response.json({ error: `episode ${episodeId} has not failed (it is ${episode.status})` }, { status: 409 });
  getRunManager().start(episode.runId);
  return Response.json({ retrying: episodeId, run: episode.runId });
}
