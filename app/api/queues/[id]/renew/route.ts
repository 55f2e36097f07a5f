import { z } from "zod";
import { deskRequest } from "@/app/_lib/desk";
import { LEASE_MS } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** An open labelling tab keeps its pairs: their leases start again. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({}));
  if (!got.ok) return got.response;
  return Response.json({
    renewed: await got.store.labels.renew(got.desk.queue.id, got.desk.userId, LEASE_MS),
    leaseMs: LEASE_MS,
  });
}
