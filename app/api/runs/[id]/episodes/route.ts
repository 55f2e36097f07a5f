import { getStore } from "@/lib/store";
import { SCORE_BANDS } from "@/lib/store/runs";

export const dynamic = "force-dynamic";

const STATUSES = ["pending", "running", "done", "failed"] as const;

/** A run's episodes a page at a time (`?page=&pageSize=&status=&score=full|partial|zero`), for scripts and long lists. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const query = new URL(request.url).searchParams;
  const status = STATUSES.find((s) => s === query.get("status"));
  const score = SCORE_BANDS.find((s) => s === query.get("score"));
  if (query.get("status") && !status)
    return Response.json({ error: `status: one of ${STATUSES.join(", ")}` }, { status: 400 });
  if (query.get("score") && !score)
    return Response.json({ error: `score: one of ${SCORE_BANDS.join(", ")}` }, { status: 400 });
  const page = await (
    await getStore()
  ).runs.episodes(runId, {
    page: Number(query.get("page")) || 1,
    pageSize: Number(query.get("pageSize")) || 50,
    status,
    score,
  });
  return Response.json(page);
}
