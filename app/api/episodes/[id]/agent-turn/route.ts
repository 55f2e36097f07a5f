import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getSeats } from "@/lib/play/seats";
import { isMoveRefused } from "@/lib/play/move-refused";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { holdsSeat } from "@/lib/access/renders";

export const dynamic = "force-dynamic";

const askSchema = z.object({ tab: z.string().min(1).max(100) });

/**
 * The agent's turn for the collaborator's tab that generates it (an episode whose agent is a model
 * in that tab): the prompt a model agent is sent and the run's sampling. The asking tab holds the
 * agent's seat from then on. For the collaborator's seat, researchers and admins.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = askSchema.safeParse(body.value);
  if (!parsed.success) return Response.json({ error: "body: give the asking tab's id as `tab`" }, { status: 400 });
  const viewer = requestViewer(request);
  if (!seesHidden(viewer) && !holdsSeat(viewer, episodeId, "simulator"))
    return Response.json(
      { error: "the in-tab agent's turns are for the collaborator's seat, researchers and admins" },
      { status: 403 },
    );
  const episode = await (await getStore()).episodes.ref(episodeId);
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  if (episode.runId === null)
    return Response.json({ error: `episode ${episodeId} was imported and is not played here` }, { status: 409 });
  try {
    return Response.json(getSeats().tabTurn(episode.runId, episodeId, parsed.data.tab));
  } catch (error) {
    if (isMoveRefused(error)) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
}
