import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

/**
 * Revokes every seat link of an episode: the links, and the cookies browsers got for them, stop
 * opening its seats at once. Researchers and admins (whoever starts sessions from Play).
 */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request))) return Response.json({ error: "revoking seat links is for researchers and admins" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  if (!Number.isSafeInteger(id)) return Response.json({ error: "not an episode id" }, { status: 400 });
  const revoked = await (await getStore()).seats.revokeAll(id);
  return Response.json({ revoked });
}
