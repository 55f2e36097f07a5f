import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { CompareTable } from "@/components/CompareTable";
import { ConfigDiff } from "@/components/compare/ConfigDiff";
import { configDiff } from "@/lib/runs/config-diff";
import { percent } from "@/components/format";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { RunCharts } from "@/components/RunCharts";
import { runDashboard } from "@/lib/runs/dashboard";
import { currentViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare runs" };

/** A run's best-of-k figure: its success rate when the benchmark has one, else its mean best reward. */
function bestOfK(benchmark: Benchmark, best: { reward: number; success: number }): string {
  const reward = benchmarks[benchmark].reward;
  return reward.hasSuccess
    ? `${reward.name.toLowerCase()} ${percent(best.success)}`
    : `${reward.measure} ${reward.format(best.reward)}`;
}

export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const query = await searchParams;
  const store = await getStore();
  const includePlayed = query.played === "1";
  const runs = (await store.runs.list({ includePlayed })).filter((r) => r.done > 0);
  const a = Number(query.a) || undefined;
  const b = Number(query.b) || undefined;
  const result = a && b ? await store.runs.compare(a, b) : null;
  // What the benchmark says of how each run was scored (frontend: the embedder and render profile).
  const Provenance =
    result && typeof result !== "string" ? benchmarkViews[result.a.benchmark].CompareProvenance : undefined;
  // Settings before metrics: a difference in rewards is read against what made the runs differ.
  const settings =
    result && typeof result !== "string"
      ? configDiff(
          ...((await Promise.all(
            [result.a.id, result.b.id].map(async (id) => (await (await store.runs.kept(id)).row())?.config),
          )) as [unknown, unknown]),
        )
      : null;
  const select = (name: "a" | "b", value?: number) => (
    <label className="flex min-w-0 max-w-full items-center gap-2">
      Run {name.toUpperCase()}
      <select
        name={name}
        defaultValue={value ?? ""}
        className="min-w-0 max-w-full rounded-md border border-stone-300 bg-white px-2 py-1"
      >
        <option value="">choose…</option>
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} ({r.benchmark}
            {r.render ? `, ${r.render.name} · ${r.render.browser}` : ""}
            {r.embedder ? `, ${r.embedder.id}` : ""})
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <PageHeader title="Compare runs">
        Two runs of one benchmark, task by task (a task&apos;s samples are averaged).
      </PageHeader>
      <form method="get" className="mb-6 flex flex-wrap items-center gap-4 text-sm">
        {select("a", a)}
        {select("b", b)}
        {includePlayed ? <input type="hidden" name="played" value="1" /> : null}
        <button type="submit" className="rounded-md bg-teal-700 px-3 py-1 text-white">
          Compare
        </button>
        <IncludeSwitch
          label="Include played sessions"
          on={includePlayed}
          href={withQuery("/compare", query, { played: !includePlayed })}
        />
      </form>
      {typeof result === "string" ? (
        <p role="alert" className="text-sm text-red-700">
          {result}
        </p>
      ) : result ? (
        <>
          {result.mismatches.map((m) => (
            // "render profile" → profile-mismatch, "embedder" → embedder-mismatch.
            <p
              key={m.by}
              role="alert"
              data-testid={`${m.by.split(" ").pop()}-mismatch`}
              className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              Different {m.by}s: {m.reason} No win rate is computed; the rewards below are shown side by side as they
              were scored.
            </p>
          ))}
          {settings ? <ConfigDiff rows={settings} aName={result.a.name} bName={result.b.name} /> : null}
          {Provenance ? <Provenance runs={[result.a, result.b]} /> : null}
          <p className="mb-4 text-sm text-stone-700" data-testid="compare-summary">
            {result.mismatches.length
              ? `Not compared: the two runs were scored under different ${result.mismatches[0]!.by}s.`
              : result.versus
                ? `${result.a.name} wins ${result.versus.wins}, ties ${result.versus.ties}, loses ${result.versus.losses} of ${result.versus.n} shared tasks: win rate ${percent(result.versus.win_rate)} [${percent(result.versus.ci_low)}, ${percent(result.versus.ci_high)}] against ${result.b.name}.`
                : "The two runs have no finished task in common."}
          </p>
          <div className="mb-4 grid gap-4 lg:grid-cols-2">
            {(
              await Promise.all(
                [result.a, result.b].map(async (run) => ({
                  run,
                  dashboard: runDashboard(await (await store.runs.kept(run.id)).figures()),
                })),
              )
            ).map(({ run, dashboard }, i) => (
              <div key={run.id}>
                {dashboard.k > 1 ? (
                  <p className="mb-1 text-sm text-stone-700" data-testid={`compare-best-of-k-${i ? "b" : "a"}`}>
                    {run.name}: best-of-{dashboard.k} {bestOfK(run.benchmark, dashboard.bestOfK)}
                  </p>
                ) : null}
                <RunCharts dashboard={dashboard} benchmark={run.benchmark} title={`${i ? "B" : "A"}: ${run.name}`} />
              </div>
            ))}
          </div>
          <CompareTable
            tasks={result.tasks}
            aName={result.a.name}
            bName={result.b.name}
            replays={seesHidden(await currentViewer())}
          />
        </>
      ) : null}
    </>
  );
}
