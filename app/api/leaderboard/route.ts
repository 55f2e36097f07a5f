import { getStore } from "@/lib/store";
import { BENCHMARKS, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { leaderboardTable } from "@/components/benchmarks/leaderboard-table";
import { EXPORT_FORMATS, exportResponse, tableExport, type ExportFormat } from "@/lib/table/table";

export const dynamic = "force-dynamic";

/**
 * One benchmark's Leaderboard as CSV or JSON, with the page's query (baseline, played, embedder) and
 * the page's cells: `/api/leaderboard?benchmark=backend&format=csv`.
 */
export async function GET(request: Request) {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const benchmark = query.benchmark as Benchmark;
  if (!BENCHMARKS.includes(benchmark))
    return Response.json({ error: `benchmark: one of ${BENCHMARKS.join(", ")}` }, { status: 400 });
  const format = (query.format ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format))
    return Response.json({ error: `format: one of ${EXPORT_FORMATS.join(", ")}` }, { status: 400 });
  const baseline = Number(query.baseline) || undefined;
  const store = await getStore();
  const all = (await store.runs.leaderboard(baseline, { includePlayed: query.played === "1" })).filter(
    (r) => r.run.benchmark === benchmark,
  );
  const views = benchmarkViews[benchmark].leaderboard;
  const table = leaderboardTable(views.shown ? views.shown(all, query) : all, benchmark, baseline);
  return exportResponse(tableExport(table.columns, table.rows, format, `leaderboard-${benchmark}`));
}
