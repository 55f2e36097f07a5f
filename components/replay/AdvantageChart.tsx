"use client";

import {
  Bar,
  BarChart,
  Cell,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/** Per-turn critic advantages (SWEET-RL) along the episode, saying whose they are: rank's, or a browser's own record. */
export function AdvantageChart({
  points,
  source,
  label,
}: {
  points: Array<{ index: number; advantage: number }>;
  source: "rank" | "browser";
  label: string;
}) {
  return (
    <figure
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4"
      data-testid="advantage-chart"
      data-source={source}
      data-points={JSON.stringify(points)}
    >
      <figcaption className="mb-2 text-sm font-medium text-stone-700">
        Critic advantage per agent turn <span className="font-normal text-stone-500">({label})</span>
      </figcaption>
      <div style={{ height: 180 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={points.map((p) => ({ turn: `turn ${p.index}`, advantage: p.advantage }))}
            margin={{ left: 8, right: 8 }}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="turn" tick={{ fontSize: 11 }} />
            <YAxis tick={{ fontSize: 11 }} width={48} />
            <ReferenceLine y={0} stroke="#78716c" />
            <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(4) : String(v))} />
            <Bar dataKey="advantage" isAnimationActive={false}>
              {points.map((p) => (
                <Cell key={p.index} fill={p.advantage >= 0 ? "#047857" : "#be123c"} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
