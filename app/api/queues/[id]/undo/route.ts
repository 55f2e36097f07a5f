import { z } from "zod";
import { deskRequest } from "@/app/_lib/desk";
import { undo } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** Takes back this person's latest label; answers with that pair to label again. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({}));
  if (!got.ok) return got.response;
  const undone = await undo(got.store, got.desk);
  // A training queue keeps a gold label whose answer the person was shown.
  if (undone.refused) return Response.json({ error: undone.refused, progress: undone.progress }, { status: 409 });
  return Response.json(undone);
}
