import { z } from "zod";
import { deskBody } from "@/app/_lib/desk";
import { adjudicate } from "@/lib/label/review";
import { CHOICES } from "@/lib/store/queues";

export const dynamic = "force-dynamic";

const schema = z.object({
  itemId: z.number().int(),
  choice: z.enum(CHOICES as ["a", "b", "tie", "both_bad"]),
  reason: z.string().max(2000).nullish(),
});

/** A reviewer decides a pair (the exports use the decision and say so). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskBody(request, params, schema);
  if (!got.ok) return got.response;
  const queue = Number.isSafeInteger(got.queueId) ? await got.store.queues.find(got.queueId) : null;
  if (!queue) return Response.json({ error: `no queue ${got.queueId}` }, { status: 404 });
  const done = await adjudicate(got.store, got.viewer, queue, got.body);
  return done.ok ? Response.json({ adjudicated: true }) : Response.json({ error: done.error }, { status: done.status });
}
