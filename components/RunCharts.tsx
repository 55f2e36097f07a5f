"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Bin, RunDashboard } from "@/lib/runs/dashboard";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";

const number = (n: number) => n.toLocaleString("en");

function Chart({
  title,
  data,
  dataKey = "count",
  format,
  testId,
  fill = "#0f766e",
  domain,
}: {
  title: string;
  data: object[];
  dataKey?: string;
  format?: (v: number) => string;
  testId: string;
  fill?: string;
  /** The value axis's range where the values have one (a rate); otherwise the data's. */
  domain?: [number, number];
}) {
  return (
    <figure className="min-w-0 rounded-lg border border-stone-200 bg-white p-3" data-testid={testId}>
      <figcaption className="mb-1 text-xs font-medium text-stone-700">{title}</figcaption>
      <div style={{ height: 150 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ left: 0, right: 4, top: 4, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 10 }} interval="preserveStartEnd" />
            <YAxis
              tick={{ fontSize: 10 }}
              width={36}
              allowDecimals={dataKey !== "count"}
              tickFormatter={format}
              domain={domain}
            />
            <Tooltip formatter={(v) => (typeof v === "number" && format ? format(v) : String(v))} />
            <Bar dataKey={dataKey} fill={fill} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/**
 * A run at a glance: how its rewards spread, how success depends on how many turns the agent took
 * before answering, turns, answer lengths and tokens (with their cost where the run gives prices).
 */
export function RunCharts({
  dashboard,
  benchmark,
  title,
}: {
  dashboard: RunDashboard;
  benchmark: Benchmark;
  title?: string;
}) {
  const d = dashboard;
  // A benchmark with a pass/fail outcome charts its success rate by turns; a graded one its mean reward.
  const reward = benchmarks[benchmark].reward;
  const byTurns = reward.hasSuccess ? reward.name : `Mean ${reward.measure}`;
  const bins = (b: Bin[]) => b.map((x) => ({ label: x.label, count: x.count }));
  const side = (label: string, t: { prompt: number; completion: number }) => (
    <tr key={label}>
      <td className="py-0.5 pr-3 text-stone-600">{label}</td>
      <td className="py-0.5 pr-3 text-right tabular-nums">{number(t.prompt)}</td>
      <td className="py-0.5 text-right tabular-nums">{number(t.completion)}</td>
    </tr>
  );
  return (
    // A container: the charts' columns follow the width the section is given, not the window's, so
    // Compare's two runs side by side at 1280 px get two columns each instead of three too narrow
    // for the token totals' numbers.
    <section aria-label={title ?? "Charts"} className="@container mb-6" data-testid="run-charts">
      {title ? <h2 className="mb-2 text-sm font-semibold text-stone-800">{title}</h2> : null}
      {d.pace ? (
        <p className="mb-2 text-sm text-stone-700" data-testid="run-pace">
          {d.pace.state === "playing" && d.pace.perMinute !== null && d.pace.eta
            ? `${d.pace.perMinute.toFixed(1)} episodes a minute; ${d.pace.remaining} left, done around ${d.pace.eta.toLocaleTimeString()}.`
            : d.pace.state === "starting"
              ? `Starting: ${d.pace.remaining} episodes left; the pace is known once the first ones end.`
              : d.pace.state === "waiting"
                ? `${d.pace.remaining} episodes left; ${d.pace.waiting} in play wait for a model server, so no end time until it answers again.`
                : `${d.pace.remaining} episodes left; none is being played now.`}
        </p>
      ) : null}
      <div className="grid gap-3 @xl:grid-cols-2 @4xl:grid-cols-3">
        <Chart title={`Reward (${reward.measure}) over episodes`} data={bins(d.rewards)} testId="chart-rewards" />
        <Chart
          title={`${byTurns} by agent turns (questions asked + the answer)`}
          data={d.byAgentTurns.map((r) => ({
            label: String(r.agentTurns),
            success: reward.hasSuccess ? r.success : r.meanReward,
            episodes: r.episodes,
          }))}
          dataKey="success"
          format={(value) => reward.format(value)}
          // A success rate ends at 100%: left to the data, a run with no success drew an axis to 400%.
          domain={reward.hasSuccess ? [0, 1] : undefined}
          testId="chart-by-turns"
          fill="#b45309"
        />
        <Chart title="Turns per episode" data={bins(d.turns)} testId="chart-turns" />
        <Chart title="Final answer length (characters)" data={bins(d.answerChars)} testId="chart-answer-length" />
        <Chart title="Tokens per episode (both sides)" data={bins(d.tokensPerEpisode)} testId="chart-tokens" />
        <figure
          className="min-w-0 overflow-hidden break-words rounded-lg border border-stone-200 bg-white p-3 text-xs"
          data-testid="token-totals"
        >
          <figcaption className="mb-1 font-medium text-stone-700">Tokens in total</figcaption>
          <div className="overflow-x-auto">
            <table className="w-full">
              <thead className="text-stone-500">
                <tr>
                  <th className="text-left font-normal" />
                  <th className="pr-3 text-right font-normal">prompt</th>
                  <th className="text-right font-normal">completion</th>
                </tr>
              </thead>
              <tbody>
                {side("agent", d.tokens.agent)}
                {side("simulator", d.tokens.simulator)}
              </tbody>
            </table>
          </div>
          <p className="mt-2 text-stone-600">{number(Math.round(d.tokens.meanPerEpisode))} per episode on average.</p>
          {d.cost ? (
            <p className="mt-1 text-stone-700" data-testid="run-cost">
              Estimated cost ${d.cost.total.toFixed(2)} (agent ${d.cost.agent.toFixed(2)}, simulator $
              {d.cost.simulator.toFixed(2)}).
            </p>
          ) : (
            <p className="mt-1 text-stone-400">
              No prices in this run&apos;s settings (colbench run --agent-price 0.15/0.60).
            </p>
          )}
        </figure>
      </div>
    </section>
  );
}
