"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AgreementReport } from "@/lib/label/report";

/** Every person's name under the bars, slanted so 20 fit (recharts drops ticks that collide otherwise). */
const NAME_TICKS = { tick: { fontSize: 10 }, interval: 0, angle: -50, textAnchor: "end", height: 64 } as const;

/** Per-person charts of a queue's report: labels and choices, gold accuracy and agreement with the source, time per label. */
export function AgreementCharts({ report }: { report: AgreementReport }) {
  const people = report.annotators.map((a) => ({
    name: a.name,
    A: a.choices.a,
    B: a.choices.b,
    tie: a.choices.tie,
    "both bad": a.choices.both_bad,
    gold: a.gold.accuracy === null ? null : Math.round(a.gold.accuracy * 100),
    source: a.source.rate === null ? null : Math.round(a.source.rate * 100),
    seconds: a.medianMs === null ? null : Number((a.medianMs / 1000).toFixed(2)),
  }));
  const chart = (title: string, testId: string, body: React.ReactElement) => (
    <figure className="rounded-lg border border-stone-200 bg-white p-4" data-testid={testId}>
      <figcaption className="mb-2 text-sm font-medium text-stone-700">{title}</figcaption>
      <div style={{ height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          {body}
        </ResponsiveContainer>
      </div>
    </figure>
  );
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      {chart(
        "Labels per person, by choice",
        "chart-choices",
        <BarChart data={people}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="name" {...NAME_TICKS} />
          <YAxis tick={{ fontSize: 11 }} width={36} allowDecimals={false} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Bar dataKey="A" stackId="c" fill="#0f766e" isAnimationActive={false} />
          <Bar dataKey="B" stackId="c" fill="#0369a1" isAnimationActive={false} />
          <Bar dataKey="tie" stackId="c" fill="#a8a29e" isAnimationActive={false} />
          <Bar dataKey="both bad" stackId="c" fill="#be123c" isAnimationActive={false} />
        </BarChart>,
      )}
      {chart(
        "Gold accuracy and agreement with the rule or critic (%)",
        "chart-accuracy",
        <BarChart data={people}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="name" {...NAME_TICKS} />
          <YAxis tick={{ fontSize: 11 }} width={36} domain={[0, 100]} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Bar dataKey="gold" fill="#ca8a04" isAnimationActive={false} />
          <Bar dataKey="source" fill="#0f766e" isAnimationActive={false} />
        </BarChart>,
      )}
      {chart(
        "Median time per label (s)",
        "chart-time",
        <BarChart data={people}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="name" {...NAME_TICKS} />
          <YAxis tick={{ fontSize: 11 }} width={36} />
          <Tooltip />
          <Bar dataKey="seconds" fill="#57534e" isAnimationActive={false} />
        </BarChart>,
      )}
    </div>
  );
}
