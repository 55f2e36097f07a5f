import { z } from "zod";
import { answerFields, deskBody, holding } from "@/app/_lib/desk";
import { labelAt } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

const schema = z.object({ ...answerFields, holding });

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
        message: `you labelled this pair already: your first choice (${outcome.kept.side.replace("_", " ")}) is kept; change it from your history`,
      }
    : {};
  return Response.json({
    stored: true,
    duplicate: outcome.duplicate,
    ...kept,
    next: outcome.next,
    progress: outcome.progress,
    ...(outcome.feedback ? { feedback: outcome.feedback } : {}),
  });
}
