import { z } from "zod";
import { deskRequest, holding } from "@/app/_lib/desk";
import { nextPair } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** The next pair for this person beyond the ones their page holds (claimed under a lease). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({ holding }));
  if (!got.ok) return got.response;
  const pair = await nextPair(got.store, got.desk, got.body.holding);
  return Response.json({ pair, progress: await got.store.labels.progress(got.desk.queue.id, got.desk.userId) });
}
