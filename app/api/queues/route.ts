import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { seesHidden } from "@/lib/access/viewer";
import { createQueue } from "@/lib/label/build";
import { labelSchemaInput } from "@/lib/label/schema";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";
import { queueSource } from "@/app/_lib/queue-source";

export const dynamic = "force-dynamic";

const schema = z.object({
  name: z.string(),
  source: queueSource,
  instructions: z.string().max(100_000).default(""),
  overlap: z.number().int(),
  gold: z.number().int().min(0).default(0),
  goldRate: z.number().min(0).max(1).optional(),
  showsHidden: z.boolean().default(false),
  hidesScores: z.boolean().default(false),
  trainingMode: z.boolean().default(false),
  labelSchema: labelSchemaInput.optional(),
  /** The most non-gold pairs one person labels (lib/label/quota.ts); absent or null: no cap. */
  quota: z.number().int().min(1).nullable().optional(),
  members: z.array(z.string()).default([]),
});

/** Makes a queue (as `colbench queues create`); researchers and admins. */
export async function POST(request: Request) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "queues are made by researchers and admins" }, { status: 403 });
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = schema.safeParse(json.value);
  if (!parsed.success)
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  try {
    return Response.json(await createQueue(await getStore(), parsed.data), { status: 201 });
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
