import { getStore } from "@/lib/store";
import { EPISODE_SORTS, SCORE_BANDS } from "@/lib/store/runs";
import { getRunManager } from "@/lib/runs/active";
import { getPipelineJobs } from "@/lib/sweet/jobs";
import { loadRunSnapshot, type EpisodeStatus, type EpisodesQuery, type RunSnapshot } from "@/lib/runs/snapshot";

// The run page and its event stream read a run's snapshot (lib/runs/snapshot.ts) the same way, with
// what only the studio's process knows: whether it plays the run, what its player last said, the
// latest SWEET-RL step's news.

const STATUSES: readonly EpisodeStatus[] = ["done", "failed", "running", "pending"];

/** The episodes table's filters, order and page from the address (unknown values are no filter, no order). */
export function episodesQuery(params: { get(name: string): string | null | undefined }): EpisodesQuery {
  const status = STATUSES.find((s) => s === params.get("status"));
  const score = SCORE_BANDS.find((s) => s === params.get("score"));
  const sort = EPISODE_SORTS.find((s) => s === params.get("sort"));
  const dir = params.get("dir") === "desc" ? "desc" : "asc";
  const page = Number(params.get("page")) || undefined;
  return {
    ...(status ? { status } : {}),
    ...(score ? { score } : {}),
    ...(sort ? { sort, dir } : {}),
    ...(page && page > 1 ? { page } : {}),
  };
}

/** The latest step's news in this process, if it has pipeline jobs (the studio's server does). */
function pipelineLast(runId: number) {
  try {
    return getPipelineJobs().status(runId);
  } catch {
    return null;
  }
}

/** The run manager, where this process has one (the studio's server does). */
function runManager() {
  try {
    return getRunManager();
  } catch {
    return null;
  }
}

export async function readRunSnapshot(
  runId: number,
  query: EpisodesQuery,
  manages: boolean,
): Promise<RunSnapshot | null> {
  const manager = runManager();
  const last = manager?.progress(runId);
  return loadRunSnapshot(await getStore(), runId, {
    query,
    manages,
    here: { active: manager?.isActive(runId) ?? false, last: last?.state, error: last?.error },
    pipelineLast: manages ? pipelineLast(runId) : null,
    queueStops: manager?.canStop(runId) ?? false,
  });
}
