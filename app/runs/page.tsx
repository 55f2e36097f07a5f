import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { percent } from "@/components/format";

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
        <table className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm" data-testid="runs-table">
          <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
            <tr>
              <th className="px-3 py-2">Run</th>
              <th className="px-3 py-2">Benchmark</th>
              <th className="px-3 py-2">Agent / simulator</th>
              <th className="px-3 py-2 text-right">Episodes</th>
              <th className="px-3 py-2 text-right">Mean reward</th>
              <th className="px-3 py-2 text-right">Success</th>
              <th className="px-3 py-2">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {runs.map((run) => (
              <tr key={run.id} className="hover:bg-stone-50">
                <td className="px-3 py-2">
                  <Link href={`/runs/${run.id}`} className="font-medium text-teal-800 hover:underline">
                    {run.name}
                  </Link>
                </td>
                <td className="px-3 py-2">
                  <BenchmarkBadge benchmark={run.benchmark} />
                </td>
                <td className="px-3 py-2 font-mono text-xs text-stone-600">
                  {run.agent ?? "imported"}
                  {run.simulator ? ` / ${run.simulator}` : ""}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {run.done}/{run.total}
                  {run.failed ? <span className="text-red-700"> ({run.failed} failed)</span> : null}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{run.meanReward === null ? "–" : run.meanReward.toFixed(3)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{run.benchmark === "backend" ? percent(run.successRate) : "–"}</td>
                <td className="px-3 py-2 text-stone-600">{run.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
