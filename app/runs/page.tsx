import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { percent } from "@/components/format";
import { DataTable } from "@/components/DataTable";
import { LiveRefresh } from "@/components/live/LiveRefresh";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  const runs = await (await getStore()).runs.list();
  return (
    <>
      <LiveRefresh />
      <div className="flex items-start justify-between">
        <PageHeader title="Runs">Each run plays its tasks against an agent and a simulator, k episodes per task.</PageHeader>
        <Link href="/runs/new" className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800">
          New run
        </Link>
      </div>
      {runs.length === 0 ? (
        <EmptyState title="No runs yet">
          Start one from a terminal, e.g. <code className="font-mono">npx colbench run --benchmark backend --agent URL#MODEL --simulator URL#MODEL</code>,
          or load trajectories with <code className="font-mono">npx colbench import-trajectories FILE.jsonl</code>. Meanwhile, browse the{" "}
          <Link className="text-teal-700 underline" href="/tasks">
            tasks
          </Link>
          .
        </EmptyState>
      ) : (
        <DataTable
          testId="runs-table"
          rows={runs}
          rowKey={(run) => run.id}
          columns={[
            {
              header: "Run",
              cell: (run) => (
                <Link href={`/runs/${run.id}`} className="font-medium text-teal-800 hover:underline">
                  {run.name}
                </Link>
              ),
            },
            { header: "Benchmark", cell: (run) => <BenchmarkBadge benchmark={run.benchmark} /> },
            { header: "Agent / simulator", className: "font-mono text-xs text-stone-600", cell: (run) => `${run.agent ?? "imported"}${run.simulator ? ` / ${run.simulator}` : ""}` },
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
            { header: "Mean reward", numeric: true, cell: (run) => (run.meanReward === null ? "–" : run.meanReward.toFixed(3)) },
            { header: "Success", numeric: true, cell: (run) => (run.benchmark === "backend" ? percent(run.successRate) : "–") },
            { header: "Status", className: "text-stone-600", cell: (run) => run.status },
          ]}
        />
      )}
    </>
  );
}
