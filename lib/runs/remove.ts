import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Store } from "../store";
import type { DeletedRun } from "../store/runs";
import { defaultRenderDir, isRenderId } from "../scoring/frontend/render-cache";

/** Why a run cannot be deleted now, or null when it can. */
export async function refuseDelete(store: Store, runId: number): Promise<string | null> {
  const claims = await store.episodes.claimsOfRun(runId);
  const now = Date.now();
  const live = claims.filter((c) => c.status === "running" && c.leaseUntil && c.leaseUntil.getTime() > now);
  if (live.length)
    return `it is playing (${live.length} episode${live.length === 1 ? "" : "s"} held by ${[...new Set(live.map((c) => c.claimedBy))].join(", ")}): stop it first`;
  return null;
}

/**
 * Deletes a run and everything that belongs to it alone (episodes, turns, candidates, pairs,
 * labels), then the render files no remaining episode or turn names. Other runs, tasks and shared
 * renders stay.
 */
export async function deleteRun(
  store: Store,
  runId: number,
  renderDir = defaultRenderDir(),
): Promise<(DeletedRun & { renderFiles: number }) | null> {
  const deleted = await store.runs.delete(runId);
  if (!deleted) return null;
  // Its jobs would otherwise wait on the queue for a run that is gone.
  await store.workers.deleteJobsOfRun(runId);
  let renderFiles = 0;
  for (const id of deleted.orphanRenders) {
    if (!isRenderId(id)) continue;
    const folder = path.join(renderDir, id.slice(0, 2));
    // The render, its sidecar and one embedding file per embedder share the id as their stem.
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.startsWith(`${id}.`));
    for (const name of names) await rm(path.join(folder, name), { force: true });
    renderFiles += names.length;
  }
  return { ...deleted, renderFiles };
}
