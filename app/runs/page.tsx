import Link from "next/link";
import { RunStateBadge } from "@/components/runs/RunStateBadge";
import { stateOfSummary } from "@/lib/runs/run-state";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { percent } from "@/components/format";
import { benchmarks } from "@/lib/benchmarks";
import { DataTable, type Column } from "@/components/DataTable";
import type { RunSummary } from "@/lib/store/runs";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { RunsTagFilter } from "@/components/runs/RunsTagFilter";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const query = await searchParams;
  const includePlayed = query.played === "1";
  const includeArchived = query.archived === "1";
  // A tag is stored lowercase (lib/store/run-notes.ts), so an address may be typed in any case.
  const tag = query.tag?.trim().toLowerCase() || undefined;
  const store = await getStore();
  const [runs, tags] = await Promise.all([
    store.runs.list({ includePlayed, includeArchived, tag }),
    store.runs.tags({ includePlayed, includeArchived }),
  ]);
  const narrowed =
    runs.length === 0 && !tag && (await store.runs.list({ includePlayed: true, includeArchived: true })).length > 0;
  return (
    <>
      <LiveRefresh />
      <div className="flex items-start justify-between">
        <PageHeader title="Runs">
          Each run plays its tasks against an agent and a simulator, k episodes per task.
        </PageHeader>
        <span className="flex gap-2">
          <Link
            href="/import"
            className="rounded-md border border-stone-300 bg-white px-4 py-2 text-sm hover:bg-stone-100"
          >
            Import a file
          </Link>
          <Link
            href="/runs/new"
            className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800"
          >
            New run
          </Link>
        </span>
      </div>
      <div className="mb-3 flex flex-wrap gap-2">
        <IncludeSwitch
          label="Include played sessions"
          on={includePlayed}
          href={withQuery("/runs", query, { played: !includePlayed })}
        />
        <IncludeSwitch
          label="Show archived"
          on={includeArchived}
          href={withQuery("/runs", query, { archived: !includeArchived })}
        />
      </div>
      <RunsTagFilter tags={tags} current={tag} href={(t) => withQuery("/runs", query, { tag: t })} />
      {runs.length === 0 && tag ? (
        <EmptyState title={`No run here is tagged "${tag}"`}>
          <Link className="text-teal-700 underline" href={withQuery("/runs", query, { tag: undefined })}>
            Show every run
          </Link>{" "}
          (archived runs and played sessions only with their switches on).
        </EmptyState>
      ) : runs.length === 0 && narrowed ? (
        <EmptyState title="No run matches these switches">
          Every run there is is a played session or archived.{" "}
          <Link className="text-teal-700 underline" href="/runs?played=1&archived=1">
            Show them all
          </Link>
          .
        </EmptyState>
      ) : runs.length === 0 ? (
        <EmptyState title="No runs yet">
          Start one with{" "}
          <Link className="text-teal-700 underline" href="/runs/new">
            New run
          </Link>{" "}
          or play a seat yourself from{" "}
          <Link className="text-teal-700 underline" href="/play">
            Play
          </Link>
          . From a terminal: <code className="font-mono">npx colbench run --help</code>.
        </EmptyState>
      ) : (
        <DataTable testId="runs-table" rows={runs} rowKey={(run) => run.id} columns={runColumns()} />
      )}
    </>
  );
}

/** The runs table's columns: name (with its marks and tags), benchmark, players, episodes, reward, success, state. */
function runColumns(): Array<Column<RunSummary>> {
  return [
    {
      header: "Run",
      cell: (run) => (
        <>
          <Link href={`/runs/${run.id}`} className="font-medium text-teal-800 hover:underline">
            {run.name}
          </Link>
          {run.kind === "played" ? (
            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">played</span>
          ) : null}
          {run.archivedAt ? (
            <span className="ml-2 rounded bg-stone-200 px-1.5 py-0.5 text-xs text-stone-700">archived</span>
          ) : null}
          {run.tags.map((t) => (
            <Link
              key={t}
              href={`/runs?tag=${encodeURIComponent(t)}`}
              className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs text-teal-900 ring-1 ring-teal-200 hover:underline"
              data-testid="runs-row-tag"
            >
              {t}
            </Link>
          ))}
        </>
      ),
    },
    { header: "Benchmark", cell: (run) => <BenchmarkBadge benchmark={run.benchmark} /> },
    {
      header: "Agent / simulator",
      className: "font-mono text-xs text-stone-600",
      cell: (run) => `${run.agent ?? "imported"}${run.simulator ? ` / ${run.simulator}` : ""}`,
    },
    {
      header: "Episodes",
      numeric: true,
      cell: (run) => (
        <>
          {run.done}/{run.total}
          {run.failed ? <span className="text-red-700"> ({run.failed} failed)</span> : null}
        </>
      ),
    },
    {
      header: "Mean reward",
      numeric: true,
      cell: (run) => (run.meanReward === null ? "–" : benchmarks[run.benchmark].reward.format(run.meanReward)),
    },
    {
      header: "Success",
      numeric: true,
      cell: (run) => (benchmarks[run.benchmark].reward.hasSuccess ? percent(run.successRate) : "–"),
    },
    { header: "State", cell: (run) => <RunStateBadge state={stateOfSummary(run)} /> },
  ];
}
