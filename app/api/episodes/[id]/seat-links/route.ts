import { z } from "zod";
import { requestViewer, studioOrigin } from "@/app/_lib/viewer";
import { jsonBody } from "@/lib/http/guard";
import { seesHidden } from "@/lib/access/viewer";
import { episodeSeatLinks, handOutSeat, SeatLinkRefused } from "@/lib/play/seat-links";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

// An episode's seat links: researchers and admins hand seats out, see who took them, and revoke them.
// A seat link itself never reaches here (the gate lets seats open only their own pages, events and
// moves), and the list never carries a key or its hash: a key is shown once, to whoever made it.

const refused = () => Response.json({ error: "seat links are for researchers and admins" }, { status: 403 });

function episodeId(raw: string): number | null {
  const id = Number.parseInt(raw, 10);
  return Number.isSafeInteger(id) && String(id) === raw ? id : null;
}

/** The episode's keys: which seat, made and expiring when, opened, revoked. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request))) return refused();
  const id = episodeId((await params).id);
  if (id === null) return Response.json({ error: "not an episode id" }, { status: 400 });
  const listed = await episodeSeatLinks(await getStore(), id);
  if (!listed) return Response.json({ error: `no episode ${id}` }, { status: 404 });
  return Response.json(listed);
}

const newLinkSchema = z.object({
  seat: z.enum(["agent", "simulator"]),
  days: z.number().positive().max(365).optional(),
});

/** A new link for a person's seat, answered once with its key (only the key's hash is kept). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request))) return refused();
  const id = episodeId((await params).id);
  if (id === null) return Response.json({ error: "not an episode id" }, { status: 400 });
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = newLinkSchema.safeParse(body.value);
  if (!parsed.success)
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  try {
    const issued = await handOutSeat(await getStore(), id, parsed.data.seat, parsed.data.days);
    return Response.json({ ...issued, link: `${studioOrigin(request)}${issued.url}` }, { status: 201 });
  } catch (error) {
    if (error instanceof SeatLinkRefused) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}

/**
 * Revokes every seat link of the episode still open: the links, and the cookies browsers got for
 * them, stop opening its seats at once. One link: DELETE …/seat-links/ID.
 */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request))) return refused();
  const id = episodeId((await params).id);
  if (id === null) return Response.json({ error: "not an episode id" }, { status: 400 });
  const revoked = await (await getStore()).seats.revoke(id);
  return Response.json({ revoked });
}
