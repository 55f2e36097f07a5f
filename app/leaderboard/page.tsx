import { Fragment } from "react";
import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { percent } from "@/components/format";
import { BENCHMARKS, benchmarks, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import type { LeaderboardColumn } from "@/components/benchmarks/views";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { HumanPreference } from "@/components/label/HumanPreference";
import { humanRatings } from "@/lib/label/leaderboard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Leaderboard" };

type Estimate = { mean: number; low: number; high: number };

const interval = (e: Estimate, format: (value: number) => string = percent) =>
  `${format(e.mean)} [${format(e.low)}, ${format(e.high)}]`;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const cellClass = "px-3 py-2";

/**
 * One benchmark's runs: the common columns, its success columns when it has a pass/fail outcome,
 * its reward, and what its views add (frontend: render profile, embedder, win rate vs a baseline).
 */
function Table({ rows, benchmark, baseline }: { rows: LeaderboardRow[]; benchmark: Benchmark; baseline?: number }) {
  const reward = benchmarks[benchmark].reward;
  const { before, after } = benchmarkViews[benchmark].leaderboard;
  // Runs with several samples per task are also ranked as the benchmark reports them: each task's best sample.
  const bestOf = rows.some((r) => r.bestOfK);
  const columns: LeaderboardColumn[] = [
    ...before,
    ...(reward.hasSuccess
      ? [
          {
            header: `${reward.name} rate (95% CI)`,
            numeric: true,
            cell: (row: LeaderboardRow) => interval(row.success),
          },
        ]
      : []),
    {
      header: `${capitalized(reward.measure)} (95% CI)`,
      numeric: true,
      cell: (row) => interval(row.reward, reward.format),
    },
    ...after,
    ...(bestOf
      ? [
          {
            header: `Best-of-k ${reward.hasSuccess ? reward.name.toLowerCase() : reward.measure} (95% CI)`,
            numeric: true,
            testId: "best-of-k",
            cell: (row: LeaderboardRow) =>
              row.bestOfK
                ? `best-of-${row.k}: ${reward.hasSuccess ? interval(row.bestOfK.success) : interval(row.bestOfK.reward, reward.format)}`
                : "–",
          },
        ]
      : []),
  ];
  return (
    // Wide tables scroll inside their own box on a narrow screen instead of widening the page.
    <div className="mb-8 overflow-x-auto rounded-lg border border-stone-200 bg-white">
      <table className="w-full text-sm" data-testid={`leaderboard-${benchmark}`}>
        <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            <th className={cellClass}>Run</th>
            <th className={cellClass}>Agent / simulator</th>
            <th className={`${cellClass} text-right`}>Tasks</th>
            {columns.map((c) => (
              <th key={c.header} className={c.numeric ? `${cellClass} text-right` : cellClass}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {rows.map((row) => (
            <tr key={row.run.id}>
              <td className={cellClass}>
                <Link href={`/runs/${row.run.id}`} className="font-medium text-teal-800 hover:underline">
                  {row.run.name}
                </Link>
              </td>
              <td className={`${cellClass} font-mono text-xs text-stone-600`}>
                {row.run.agent ?? "imported"}
                {row.run.simulator ? ` / ${row.run.simulator}` : ""}
              </td>
              <td className={`${cellClass} text-right tabular-nums`}>{row.tasks}</td>
              {columns.map((c) => (
                <td
                  key={c.header}
                  className={[cellClass, c.numeric ? "text-right tabular-nums" : "", c.className?.(row) ?? ""]
                    .filter(Boolean)
                    .join(" ")}
                  data-testid={c.testId}
                >
                  {c.cell(row, { baseline })}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
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
    const { shown, Header } = benchmarkViews[benchmark].leaderboard;
    return all.length ? [{ benchmark, all, shown: shown ? shown(all, query) : all, Header }] : [];
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
              <Table rows={shown} benchmark={benchmark} baseline={baseline} />
            </Fragment>
          ))}
        </>
      )}
      <HumanPreference ratings={human} />
    </>
  );
}
