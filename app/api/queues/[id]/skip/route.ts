import { z } from "zod";
import { deskRequest, holding } from "@/app/_lib/desk";
import { skip } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** Passes on a pair (never offered to this person again) and answers with the next one. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({ itemId: z.number().int(), holding }));
  if (!got.ok) return got.response;
  return Response.json(await skip(got.store, got.desk, got.body.itemId, got.body.holding));
}
