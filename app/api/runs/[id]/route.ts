import { getStore } from "@/lib/store";
import { getRunManager } from "@/lib/runs/active";
import { deleteRun, refuseDelete } from "@/lib/runs/remove";

export const dynamic = "force-dynamic";

/** Deletes a run with its episodes, turns, candidates, pairs, labels and the renders only it used. */
export async function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const run = Number.isSafeInteger(id) ? await store.runs.find(id) : null;
  if (!run) return Response.json({ error: `no run ${(await params).id}` }, { status: 404 });
  // A run this studio plays is stopped first; one another process plays is refused.
  await getRunManager().stop(id);
  const refusal = await refuseDelete(store, id);
  if (refusal) return Response.json({ error: `cannot delete ${run.name}: ${refusal}` }, { status: 409 });
  const deleted = await deleteRun(store, id);
  return Response.json({
    run: run.name,
    deleted: true,
    episodes: deleted?.episodes ?? 0,
    turns: deleted?.turns ?? 0,
    renderFiles: deleted?.renderFiles ?? 0,
  });
}
