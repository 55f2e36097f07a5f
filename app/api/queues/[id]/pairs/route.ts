import { z } from "zod";
import { leadBody, refused } from "@/app/_lib/lead";
import { addPairs } from "@/lib/label/build";
import { queueSource } from "@/app/_lib/queue-source";

export const dynamic = "force-dynamic";

const schema = z
  .object({
    source: queueSource,
    limit: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    gold: z.number().int().min(0).optional(),
  })
  .strict();

/** Adds a run's pairs (its SWEET-RL pairs, ranked candidates, or two runs) to a queue: as `colbench queues add-pairs`. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await leadBody(request, params, schema);
  if (!got.ok) return got.response;
  try {
    return Response.json(await addPairs(got.store, got.queue, got.body), { status: 201 });
  } catch (error) {
    return refused(error);
  }
}
