import { z } from "zod";
import { leadBody, refused } from "@/app/_lib/lead";
import { addMembers, removeMembers } from "@/lib/label/manage";

export const dynamic = "force-dynamic";

const names = z.array(z.string().min(1)).max(500);

/** Lets people label a queue, or takes them off it (their labels stay), by name: as `colbench queues members`. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await leadBody(request, params, z.object({ add: names.default([]), remove: names.default([]) }).strict());
  if (!got.ok) return got.response;
  const { store, queue, body } = got;
  try {
    const added = body.add.length ? (await addMembers(store, queue, body.add)).added : 0;
    const taken = body.remove.length ? await removeMembers(store, queue, body.remove) : { removed: 0, released: 0 };
    return Response.json({ queue: queue.name, added, removed: taken.removed, released: taken.released });
  } catch (error) {
    return refused(error);
  }
}
