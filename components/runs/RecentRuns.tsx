import Link from "next/link";
import { benchmarks } from "@/lib/benchmarks";
import { stateOfSummary } from "@/lib/runs/run-state";
import type { RunSummary } from "@/lib/store/runs";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { Every } from "@/components/live/Every";
import { RunStateBadge } from "./RunStateBadge";

// The home page's runs: what plays now, then the latest runs, each with its state word (the run
// page's and `colbench runs`' word for the same rows), its progress and its mean reward.

function RunLine({ run }: { run: RunSummary }) {
  const reward = benchmarks[run.benchmark].reward;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid="home-run">
      <Link href={`/runs/${run.id}`} className="min-w-0 truncate font-medium text-teal-800 hover:underline">
        {run.name}
      </Link>
      <BenchmarkBadge benchmark={run.benchmark} />
      <RunStateBadge state={stateOfSummary(run)} />
      <span className="ml-auto text-sm tabular-nums text-stone-600">
        {run.done}/{run.total} done{run.failed ? `, ${run.failed} failed` : ""}
        {run.meanReward === null ? "" : ` · mean ${reward.measure} ${reward.format(run.meanReward)}`}
        {run.embedder ? ` (by ${run.embedder.label})` : ""}
      </span>
    </li>
  );
}

export function RecentRuns({ runs, recent = 5 }: { runs: RunSummary[]; recent?: number }) {
  const playing = runs.filter((r) => ["running", "stopping"].includes(stateOfSummary(r)));
  const latest = runs.filter((r) => !playing.includes(r)).slice(0, recent);
  const section = "rounded-lg border border-stone-200 bg-white px-5 py-3";
  // A player that has just started holds no episode yet; its run shows as running within a few seconds.
  const starting = runs.some((r) => r.status === "running" && r.toPlay > 0 && !playing.includes(r));
  return (
    <div className="mt-6 grid gap-4 lg:grid-cols-2">
      {playing.length || starting ? <Every seconds={5} /> : null}
      <section className={section} aria-labelledby="running-now" data-testid="running-now">
        <h2 id="running-now" className="text-sm font-semibold text-stone-800">
          Running now
        </h2>
        {playing.length ? (
          <ul className="divide-y divide-stone-100">
            {playing.map((run) => (
              <RunLine key={run.id} run={run} />
            ))}
          </ul>
        ) : (
          <p className="py-2 text-sm text-stone-500">
            No run is being played.{" "}
            <Link href="/runs/new" className="text-teal-700 underline">
              Start one
            </Link>
            .
          </p>
        )}
      </section>
      <section className={section} aria-labelledby="recent-runs" data-testid="recent-runs">
        <h2 id="recent-runs" className="text-sm font-semibold text-stone-800">
          Recent runs
        </h2>
        {latest.length ? (
          <ul className="divide-y divide-stone-100">
            {latest.map((run) => (
              <RunLine key={run.id} run={run} />
            ))}
          </ul>
        ) : (
          <p className="py-2 text-sm text-stone-500">No other runs yet.</p>
        )}
        <Link href="/runs" className="mt-1 inline-block text-sm text-teal-700 hover:underline">
          All runs →
        </Link>
      </section>
    </div>
  );
}
