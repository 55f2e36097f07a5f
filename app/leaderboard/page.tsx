import { Fragment } from "react";
import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { BENCHMARKS, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { leaderboardTable } from "@/components/benchmarks/leaderboard-table";
import { SortableTable } from "@/components/table/SortableTable";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { HumanPreference } from "@/components/label/HumanPreference";
import { humanRatings } from "@/lib/label/leaderboard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Leaderboard" };

/**
 * One benchmark's runs as a table to sort, filter and export (components/benchmarks/leaderboard-table.tsx);
 * "Export" downloads the rows shown, /api/leaderboard the whole table, with the same cells.
 */
function Table({
  rows,
  benchmark,
  baseline,
  query,
}: {
  rows: LeaderboardRow[];
  benchmark: Benchmark;
  baseline?: number;
  query: Record<string, string | undefined>;
}) {
  const table = leaderboardTable(rows, benchmark, baseline);
  return (
    <div className="mb-8">
      <SortableTable
        columns={table.columns}
        rows={table.rows}
        name={`leaderboard-${benchmark}`}
        testId={`leaderboard-${benchmark}`}
        caption={
          <>
            {rows.length} run{rows.length === 1 ? "" : "s"} · whole table:{" "}
            <a
              className="text-teal-700 underline"
              href={`/api/leaderboard?${new URLSearchParams(exportQuery(query, benchmark, "csv"))}`}
            >
              CSV
            </a>{" "}
            <a
              className="text-teal-700 underline"
              href={`/api/leaderboard?${new URLSearchParams(exportQuery(query, benchmark, "json"))}`}
            >
              JSON
            </a>
          </>
        }
      />
    </div>
  );
}

/** The page's own query, as the export route reads it. */
function exportQuery(
  query: Record<string, string | undefined>,
  benchmark: Benchmark,
  format: string,
): Record<string, string> {
  const kept: Record<string, string> = { benchmark, format };
  for (const key of ["baseline", "played", "embedder"]) if (query[key]) kept[key] = query[key]!;
  return kept;
}

export default async function LeaderboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const query = await searchParams;
  const baseline = Number(query.baseline) || undefined;
  const includePlayed = query.played === "1";
  const rows = await (await getStore()).runs.leaderboard(baseline, { includePlayed });
  const human = await humanRatings(await getStore());
  // One table per registered benchmark, in the registry's order; each shows the rows its views choose.
  const sections = BENCHMARKS.flatMap((benchmark) => {
    const all = rows.filter((r) => r.run.benchmark === benchmark);
    const views = benchmarkViews[benchmark].leaderboard;
    return all.length
      ? [{ benchmark, all, shown: views.shown ? views.shown(all, query) : all, Header: views.Header }]
      : [];
  });
  return (
    <>
      <LiveRefresh />
      <PageHeader title="Leaderboard">
        Every run with finished episodes. Intervals are 95%, over tasks (a task&apos;s samples are averaged first).{" "}
        <Link href="/compare" className="text-teal-700 underline">
          Compare two runs task by task
        </Link>
        .
      </PageHeader>
      <div className="mb-3">
        <IncludeSwitch
          label="Include played sessions"
          on={includePlayed}
          href={withQuery("/leaderboard", query, { played: !includePlayed })}
        />
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No scored runs yet">
          Finished benchmark runs are ranked here, one table per benchmark by its reward. Start one with{" "}
          <Link href="/runs/new" className="text-teal-700 underline">
            New run
          </Link>
          .
        </EmptyState>
      ) : (
        <>
          {sections.map(({ benchmark, all, shown, Header }) => (
            <Fragment key={benchmark}>
              {Header ? (
                <Header
                  heading={benchmarkViews[benchmark].heading}
                  all={all}
                  shown={shown}
                  query={query}
                  baseline={baseline}
                />
              ) : (
                <h2 className="mb-2 text-lg font-semibold text-stone-900">{benchmarkViews[benchmark].heading}</h2>
              )}
              <Table rows={shown} benchmark={benchmark} baseline={baseline} query={query} />
            </Fragment>
          ))}
        </>
      )}
      <HumanPreference ratings={human} />
    </>
  );
}
