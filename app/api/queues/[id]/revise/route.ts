import { z } from "zod";
import { answerFields, deskRequest } from "@/app/_lib/desk";
import { revise } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** Changes one of this person's earlier labels: stored as its new version, the old one kept. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object(answerFields));
  if (!got.ok) return got.response;
  const outcome = await revise(got.store, got.desk, got.body);
  if (!outcome.ok) return Response.json({ error: outcome.error }, { status: outcome.status });
  return Response.json({
    stored: true,
    version: outcome.version,
    progress: await got.store.labels.progress(got.desk.queue.id, got.desk.userId),
  });
}
