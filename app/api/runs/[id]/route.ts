import { z } from "zod";
import { getStore } from "@/lib/store";
import { getRunManager } from "@/lib/runs/active";
import { deleteRun, refuseDelete } from "@/lib/runs/remove";
import { jsonBody } from "@/lib/http/guard";
import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { checkRunName, checkRunNotes, checkRunTag, RunEditError } from "@/lib/store/run-notes";

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

const tagList = z.array(z.string()).max(100);
const editSchema = z
  .object({
    name: z.string().max(1000).optional(),
    notes: z.string().max(100_000).optional(),
    // A whole new set, or tags to add and remove.
    tags: z.union([tagList, z.object({ add: tagList.optional(), remove: tagList.optional() }).strict()]).optional(),
  })
  .strict();

const STATUS = { invalid: 400, taken: 409, missing: 404 } as const;

/**
 * Renames a run, sets its notes or changes its tags (`{name?, notes?, tags?: [...] | {add?, remove?}}`);
 * answers the run's name, notes and tags as stored. Researchers and admins only, as the gate already
 * holds every other change to a run; checked here too, whatever reached the route.
 */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "only researchers and admins change a run's name, notes and tags" }, { status: 403 });
  const raw = (await params).id;
  const id = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = editSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return Response.json(
      { error: `body${issue.path.map((p) => `.${String(p)}`).join("")}: ${issue.message}` },
      { status: 400 },
    );
  }
  const store = await getStore();
  const run = Number.isSafeInteger(id) ? await store.runs.find(id) : null;
  if (!run) return Response.json({ error: `no run ${raw}` }, { status: 404 });
  const { name, notes, tags } = parsed.data;
  try {
    // Everything is checked before anything is written, so a refused edit changes nothing.
    if (name !== undefined) checkRunName(name);
    if (notes !== undefined) checkRunNotes(notes);
    (Array.isArray(tags) ? tags : (tags?.add ?? [])).forEach(checkRunTag);
    if (name !== undefined) await store.runs.rename(id, name);
    if (notes !== undefined) await store.runs.setNotes(id, notes);
    if (tags !== undefined) await store.runs.changeTags(id, Array.isArray(tags) ? { set: tags } : tags);
  } catch (error) {
    if (error instanceof RunEditError) return Response.json({ error: error.message }, { status: STATUS[error.reason] });
    throw error;
  }
  const summary = await store.runs.summary(id);
  return Response.json({ id, name: summary?.name, notes: summary?.notes, tags: summary?.tags });
}
