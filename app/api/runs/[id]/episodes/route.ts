import { getStore } from "@/lib/store";
import { EPISODE_SORTS, SCORE_BANDS } from "@/lib/store/runs";
import { EXPORT_FORMATS, exportResponse, parseSort, tableExport, type ExportFormat } from "@/lib/table/table";
import { EPISODE_COLUMNS, episodeRows } from "@/components/table/episodes-table";

export const dynamic = "force-dynamic";

const STATUSES = ["pending", "running", "done", "failed"] as const;

/**
 * A run's episodes a page at a time (`?page=&pageSize=&status=&score=full|partial|zero&sort=&dir=`), for
 * scripts and long lists; with `format=csv|json`, every episode under the filters in that order, as the
 * run page's table shows them.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const query = new URL(request.url).searchParams;
  const status = STATUSES.find((s) => s === query.get("status"));
  const score = SCORE_BANDS.find((s) => s === query.get("score"));
  if (query.get("status") && !status)
    return Response.json({ error: `status: one of ${STATUSES.join(", ")}` }, { status: 400 });
  if (query.get("score") && !score)
    return Response.json({ error: `score: one of ${SCORE_BANDS.join(", ")}` }, { status: 400 });
  if (query.get("sort") && !EPISODE_SORTS.includes(query.get("sort") as never))
    return Response.json({ error: `sort: one of ${EPISODE_SORTS.join(", ")}` }, { status: 400 });
  const order = parseSort({ sort: query.get("sort") ?? undefined, dir: query.get("dir") ?? undefined }, EPISODE_SORTS);
  const sort = order ? { column: order.column as (typeof EPISODE_SORTS)[number], dir: order.dir } : undefined;
  const store = await getStore();
  const format = query.get("format");
  if (format !== null) {
    if (!EXPORT_FORMATS.includes(format as ExportFormat))
      return Response.json({ error: `format: one of ${EXPORT_FORMATS.join(", ")}` }, { status: 400 });
    const run = await store.runs.find(runId);
    if (!run) return Response.json({ error: "no such run" }, { status: 404 });
    const items = [];
    for (let page = 1; ; page++) {
      const got = await store.runs.episodes(runId, { page, pageSize: 200, status, score, sort });
      items.push(...got.items);
      if (page >= got.pages) break;
    }
    return exportResponse(
      tableExport(EPISODE_COLUMNS, episodeRows(items), format as ExportFormat, `${run.name}-episodes`),
    );
  }
  const page = await store.runs.episodes(runId, {
    page: Number(query.get("page")) || 1,
    pageSize: Number(query.get("pageSize")) || 50,
    status,
    score,
    sort,
  });
  return Response.json(page);
}
