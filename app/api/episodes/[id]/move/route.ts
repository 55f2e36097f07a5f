import { z } from "zod";
import { getSeats } from "@/lib/play/seats";
import { isMoveRefused } from "@/lib/play/move-refused";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const moveSchema = z.object({
  role: z.enum(["agent", "simulator"]),
  text: z.string().min(1, "a move needs some text").max(200_000),
});

/** A person's move (as the agent or as the simulated human) in an episode played from the studio. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const parsed = moveSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, { status: 400 });
  }
  const episode = await (await getStore()).episodes.ref(episodeId);
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  if (episode.runId === null) return Response.json({ error: `episode ${episodeId} was imported and is not played here` }, { status: 409 });
  try {
    getSeats().submitMove(episode.runId, episodeId, parsed.data.role, parsed.data.text);
  } catch (error) {
    if (isMoveRefused(error)) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
  return Response.json({ ok: true });
}
