import { z } from "zod";
import { deskBody } from "@/app/_lib/desk";
import { reviewOne } from "@/lib/label/review";

export const dynamic = "force-dynamic";

const schema = z.object({
  labelId: z.number().int(),
  verdict: z.enum(["accepted", "rejected"]).nullable(),
  note: z.string().max(2000).nullish(),
});

/** A reviewer accepts or rejects one label (null takes the verdict back). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskBody(request, params, schema);
  if (!got.ok) return got.response;
  const queue = Number.isSafeInteger(got.queueId) ? await got.store.queues.find(got.queueId) : null;
  if (!queue) return Response.json({ error: `no queue ${got.queueId}` }, { status: 404 });
  const done = await reviewOne(got.store, got.viewer, queue, got.body);
  return done.ok ? Response.json({ reviewed: true }) : Response.json({ error: done.error }, { status: done.status });
}
