import path from "node:path";
import { z } from "zod";
import { leadBody, refused } from "@/app/_lib/lead";
import { deleteExportingTo, editInstructions, setState, setTraining } from "@/lib/label/manage";
import { dataDir } from "@/lib/paths";
import { setQuota } from "@/lib/label/quota";

export const dynamic = "force-dynamic";

const change = z
  .object({
    state: z.enum(["open", "closed", "archived"]).optional(),
    instructions: z.string().optional(),
    trainingMode: z.boolean().optional(),
    /** The most non-gold pairs one person labels; null lifts the cap (lib/label/quota.ts). */
    quota: z.number().int().min(1).nullable().optional(),
  })
  .strict();

/** Changes a queue (as `colbench queues close|archive|reopen|edit|training`): its state, instructions, training mode. */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await leadBody(request, params, change);
  if (!got.ok) return got.response;
  const { store, queue, body } = got;
  try {
    const done: Record<string, unknown> = { queue: queue.name };
    if (body.instructions !== undefined) Object.assign(done, await editInstructions(store, queue, body.instructions));
    if (body.trainingMode !== undefined) Object.assign(done, await setTraining(store, queue, body.trainingMode));
    if (body.state) Object.assign(done, await setState(store, queue, body.state));
    if (body.quota !== undefined) Object.assign(done, await setQuota(store, queue, body.quota));
    return Response.json(done);
  } catch (error) {
    return refused(error);
  }
}

/**
 * Deletes a queue with its pairs and labels (as `colbench queues delete`), once every label is written
 * to a new file in the data folder's exports/ and read back; the body names the queue again.
 */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await leadBody(request, params, z.object({ confirm: z.string() }));
  if (!got.ok) return got.response;
  if (got.body.confirm !== got.queue.name)
    return Response.json({ error: `confirm: type the queue's name (${got.queue.name}) to delete it` }, { status: 400 });
  try {
    return Response.json(await deleteExportingTo(got.store, got.queue, path.join(dataDir(), "exports")));
  } catch (error) {
    return refused(error);
  }
}
