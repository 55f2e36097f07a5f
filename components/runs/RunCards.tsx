"use client";

import { benchmarks } from "@/lib/benchmarks";
import { percent } from "@/components/format";
import { useRunSnapshot } from "./snapshot-context";

/** The run's headline figures as cards, from the snapshot's counts and dashboard. */
export function RunCards() {
  const s = useRunSnapshot();
  const rule = benchmarks[s.run.benchmark].reward;
  const formatted = (value: number | null) => (value === null ? "–" : rule.format(value));
  // A similarity means nothing without the embedder that made it (and the weight-free one is not the paper's).
  const by = s.run.embedder ? `by ${s.run.embedder}` : undefined;
  const d = s.dashboard;
  const cards: Array<[string, string, string?]> = [
    ["Episodes done", `${s.counts.done}/${s.counts.total}`],
    ["Failed", String(s.counts.failed)],
    [`Mean ${rule.measure}`, formatted(s.meanReward), by],
    // A graded benchmark has no success rate: its place names the agent.
    rule.hasSuccess ? [`${rule.name} rate`, percent(s.successRate)] : ["Agent", s.run.agent ?? "imported"],
  ];
  if (d.k > 1)
    cards.push(
      rule.hasSuccess
        ? [`Best-of-${d.k} ${rule.name.toLowerCase()}`, percent(d.bestOfK.success)]
        : [`Best-of-${d.k} ${rule.measure}`, formatted(d.bestOfK.reward), by],
    );
  return (
    <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-5" data-testid="run-figures">
      {cards.map(([label, value, note]) => (
        <div
          key={label}
          className="min-w-0 rounded-lg border border-stone-200 bg-white p-4"
          data-testid="run-card"
          data-label={label}
        >
          <dt className="text-xs text-stone-500">{label}</dt>
          <dd className="mt-1 truncate text-xl font-semibold text-stone-900" data-testid="run-card-value">
            {value}
          </dd>
          {note ? (
            <dd className="mt-1 text-xs text-stone-500" data-testid="figure-embedder">
              {note}
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}
