import { z } from "zod";
import { deskBody, holding } from "@/app/_lib/desk";
import { labelAt } from "@/lib/label/desk";
import { SIDES } from "@/lib/store/labels";

export const dynamic = "force-dynamic";

const schema = z.object({
  itemId: z.number().int(),
  side: z.enum(SIDES as ["left", "right", "tie", "both_bad"]),
  comment: z.string().max(4000).nullish(),
  ms: z.number().min(0).max(86_400_000),
  holding,
});

/** Stores a label, then answers with the pair after the ones the page holds. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskBody(request, params, schema);
  if (!got.ok) return got.response;
  // The queue is found and the person's right to label it checked in the label's own statement.
  const outcome = await labelAt(got.store, got.viewer, got.queueId, got.body);
  if (!outcome.ok) return Response.json({ error: outcome.error }, { status: outcome.status });
  // A resend keeps the first label: say which choice that is, and how to change it.
  const kept = outcome.kept
    ? {
        kept: outcome.kept.side,
        message: `you labelled this pair already: your first choice (${outcome.kept.side.replace("_", " ")}) is kept; undo it to label again`,
      }
    : {};
  return Response.json({
    stored: true,
    duplicate: outcome.duplicate,
    ...kept,
    next: outcome.next,
    progress: outcome.progress,
  });
}
