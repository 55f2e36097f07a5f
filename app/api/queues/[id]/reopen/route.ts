import { z } from "zod";
import { deskRequest } from "@/app/_lib/desk";
import { reopen } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** One of this person's labelled pairs again, as they saw it, with their label (to change it). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({ itemId: z.number().int() }));
  if (!got.ok) return got.response;
  const found = await reopen(got.store, got.desk, got.body.itemId);
  if (!found)
    return Response.json({ error: `you have no label on pair ${got.body.itemId} in this queue` }, { status: 404 });
  return Response.json(found);
}
