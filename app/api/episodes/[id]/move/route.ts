import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getSeats } from "@/lib/play/seats";
import { isMoveRefused } from "@/lib/play/move-refused";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

/**
 * A move is one message of at most 200,000 characters, code or HTML included (the body as a whole
 * may be up to 1 MiB of JSON, lib/http/guard.ts); the benchmark then cuts a simulator's reply to
 * 400 (backend) or 1000 (frontend) characters like a model's.
 */
const MAX_MOVE_CHARS = 200_000;

const moveSchema = z.object({
  role: z.enum(["agent", "simulator"]),
  text: z.string().min(1, "a move needs some text").max(MAX_MOVE_CHARS, `a move is at most ${MAX_MOVE_CHARS.toLocaleString("en")} characters, code or HTML included`),
});

/** A person's move (as the agent or as the simulated human) in an episode played from the studio. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = moveSchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, { status: 400 });
  }
  const episode = await (await getStore()).episodes.ref(episodeId);
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  if (episode.runId === null) return Response.json({ error: `episode ${episodeId} was imported and is not played here` }, { status: 409 });
  // A seat link moves for its own seat only.
  const viewer = requestViewer(request);
  const seat = parsed.data.role;
  if (viewer.kind === "seats" && !viewer.seats.some((s) => s.episodeId === episodeId && s.seat === seat)) {
    return Response.json({ error: `this link is not for the ${seat === "agent" ? "agent" : "collaborator"}'s seat` }, { status: 403 });
  }
  try {
    getSeats().submitMove(episode.runId, episodeId, parsed.data.role, parsed.data.text);
  } catch (error) {
    if (isMoveRefused(error)) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
  return Response.json({ ok: true });
}
