import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

/** Revokes one seat link of the episode (and the cookie a browser got for it): researchers and admins. */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string; linkId: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "seat links are for researchers and admins" }, { status: 403 });
  const { id: rawId, linkId: rawLink } = await params;
  const id = Number.parseInt(rawId, 10);
  const linkId = Number.parseInt(rawLink, 10);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(linkId))
    return Response.json({ error: "not an episode and link id" }, { status: 400 });
  const revoked = await (await getStore()).seats.revoke(id, linkId);
  if (revoked === 0) {
    const known = (await (await getStore()).seats.list(id)).some((l) => l.id === linkId);
    return Response.json(
      {
        error: known
          ? `seat link ${linkId} opens nothing already (revoked or expired)`
          : `episode ${id} has no seat link ${linkId}`,
      },
      { status: known ? 409 : 404 },
    );
  }
  return Response.json({ revoked });
}
