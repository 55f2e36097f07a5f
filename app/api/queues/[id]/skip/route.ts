import { z } from "zod";
import { deskRequest, holding } from "@/app/_lib/desk";
import { later, skip } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

const schema = z.object({
  itemId: z.number().int(),
  holding,
  /** Why (the person's words); kept for the queue's lead. */
  reason: z.string().max(1000).nullish(),
  /** The pair is broken (cannot be judged as shown). */
  broken: z.boolean().default(false),
  /** Not a pass: keep the pair and offer it after every other. */
  later: z.boolean().default(false),
});

/**
 * Passes on a pair (never offered to this person again; with a reason, or flagged as broken), or
 * with `later` puts it after every other; answers with the next one.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, schema);
  if (!got.ok) return got.response;
  const { itemId, holding: held, reason, broken } = got.body;
  if (got.body.later) return Response.json(await later(got.store, got.desk, itemId, held));
  return Response.json(await skip(got.store, got.desk, itemId, held, { reason, broken }));
}
