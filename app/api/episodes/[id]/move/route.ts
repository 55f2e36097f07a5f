import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getSeats } from "@/lib/play/seats";
import { isMoveRefused } from "@/lib/play/move-refused";
import { getStore } from "@/lib/store";
import { messageLimit } from "@/lib/play/seat-views";
import { requestViewer } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

// A move is one message, code or HTML included, of at most the run's limit (20,000 characters
// unless the run sets another); the benchmark then cuts a simulator's reply to 400 (backend) or
// 1000 (frontend) characters like a model's. The body as a whole is at most 1 MiB (lib/http/guard.ts).

const moveSchema = z
  .object({
    role: z.enum(["agent", "simulator"]),
    // A model's turn may be empty (it ended at once), as a model server's may; a person's may not.
    text: z.string(),
    // An agent generated in the collaborator's tab: which tab (it asked for the turn) and its token counts.
    tab: z.string().min(1).max(100).optional(),
    usage: z.object({ promptTokens: z.number().int().min(0), completionTokens: z.number().int().min(0) }).optional(),
  })
  .refine((m) => m.text.length > 0 || m.tab !== undefined, { path: ["text"], message: "a move needs some text" });

/** A person's move (as the agent or as the simulated human) in an episode played from the studio. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = moveSchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  }
  const store = await getStore();
  const episode = await store.episodes.forSeat(episodeId);
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  const limit = messageLimit(episode.runConfig);
  const length = [...parsed.data.text].length;
  if (length > limit) {
    return Response.json(
      {
        error: `a move is at most ${limit.toLocaleString("en")} characters, code or page included; this one has ${length.toLocaleString("en")}`,
      },
      { status: 413 },
    );
  }
  if (episode.runId === null)
    return Response.json({ error: `episode ${episodeId} was imported and is not played here` }, { status: 409 });
  // A seat link moves for its own seat only.
  const viewer = requestViewer(request);
  const seat = parsed.data.role;
  // The agent a collaborator's tab generates moves from that tab: the collaborator's seat holds it.
  const holds = (s: { episodeId: number; seat: string }) =>
    s.episodeId === episodeId && (s.seat === seat || (parsed.data.tab !== undefined && s.seat === "simulator"));
  if (viewer.kind === "seats" && !viewer.seats.some(holds)) {
    return Response.json(
      { error: `this link is not for the ${seat === "agent" ? "agent" : "collaborator"}'s seat` },
      { status: 403 },
    );
  }
  try {
    getSeats().submitMove(episode.runId, episodeId, parsed.data.role, parsed.data.text, {
      tab: parsed.data.tab,
      usage: parsed.data.usage,
    });
  } catch (error) {
    if (isMoveRefused(error)) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
  return Response.json({ ok: true });
}
