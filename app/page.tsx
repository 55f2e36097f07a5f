import Link from "next/link";
import { getDatabase } from "@/lib/db";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { BENCHMARKS } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { RecentRuns } from "@/components/runs/RecentRuns";

export const dynamic = "force-dynamic";

export default async function Home() {
  const { kind } = await getDatabase();
  const store = await getStore();
  // Newest first: what plays now, and the latest runs, beside the task counts.
  const [counts, runs] = await Promise.all([store.tasks.counts(), store.runs.list()]);
  const cards = BENCHMARKS.map((name) => ({
    href: `/tasks?benchmark=${name}`,
    label: `${benchmarkViews[name].heading} tasks`,
    value: counts.byBenchmark[name],
  }));
  return (
    <>
      <PageHeader title="ColBench Studio">
        Collaborative agent episodes from the SWEET-RL paper: run them against model servers, play either side, replay
        them turn by turn and label preference pairs.
      </PageHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        {cards.map((card) => (
          <Link
            key={card.href}
            href={card.href}
            className="rounded-lg border border-stone-200 bg-white p-5 hover:border-teal-400"
          >
            <div className="text-sm text-stone-600">{card.label}</div>
            <div
              className="mt-1 text-3xl font-semibold text-stone-900"
              data-testid={`count-${card.href.split("=")[1]}`}
            >
              {card.value}
            </div>
          </Link>
        ))}
      </div>
      <LiveRefresh />
      <RecentRuns runs={runs} />
      <p className="mt-6 text-xs text-stone-500">
        Database: {kind} · {counts.splits.map((s) => `${s.benchmark}/${s.split}: ${s.count}`).join(" · ") || "empty"}
      </p>
    </>
  );
}
