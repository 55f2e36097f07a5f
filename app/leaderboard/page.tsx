import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { percent } from "@/components/format";
import { profileLabel } from "@/lib/colbench/render-profile";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { HumanPreference } from "@/components/label/HumanPreference";
import { humanRatings } from "@/lib/label/leaderboard";
import { FilterPills } from "@/components/FilterPills";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Leaderboard" };

const interval = (e: { mean: number; low: number; high: number }, asPercent = true) =>
  asPercent ? `${percent(e.mean)} [${percent(e.low)}, ${percent(e.high)}]` : `${e.mean.toFixed(3)} [${e.low.toFixed(3)}, ${e.high.toFixed(3)}]`;

function Table({ rows, benchmark, baseline }: { rows: LeaderboardRow[]; benchmark: "backend" | "frontend"; baseline?: number }) {
  // Runs with several samples per task are also ranked as the benchmark reports them: each task's best sample.
  const bestOf = rows.some((r) => r.bestOfK);
  return (
    // Wide tables scroll inside their own box on a narrow screen instead of widening the page.
    <div className="mb-8 overflow-x-auto rounded-lg border border-stone-200 bg-white">
    <table className="w-full text-sm" data-testid={`leaderboard-${benchmark}`}>
      <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
        <tr>
          <th className="px-3 py-2">Run</th>
          <th className="px-3 py-2">Agent / simulator</th>
          <th className="px-3 py-2 text-right">Tasks</th>
          {benchmark === "backend" ? (
            <>
              <th className="px-3 py-2 text-right">Success rate (95% CI)</th>
              <th className="px-3 py-2 text-right">% tests passed (95% CI)</th>
              {bestOf ? <th className="px-3 py-2 text-right">Best-of-k success (95% CI)</th> : null}
            </>
          ) : (
            <>
              <th className="px-3 py-2">Render profile</th>
              <th className="px-3 py-2">Embedder</th>
              <th className="px-3 py-2 text-right">Similarity (95% CI)</th>
              <th className="px-3 py-2 text-right">Win rate vs baseline (95% CI)</th>
              {bestOf ? <th className="px-3 py-2 text-right">Best-of-k similarity (95% CI)</th> : null}
            </>
          )}
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">
        {rows.map((row) => (
          <tr key={row.run.id}>
            <td className="px-3 py-2">
              <Link href={`/runs/${row.run.id}`} className="font-medium text-teal-800 hover:underline">
                {row.run.name}
              </Link>
            </td>
            <td className="px-3 py-2 font-mono text-xs text-stone-600">
              {row.run.agent ?? "imported"}
              {row.run.simulator ? ` / ${row.run.simulator}` : ""}
            </td>
            <td className="px-3 py-2 text-right tabular-nums">{row.tasks}</td>
            {benchmark === "backend" ? (
              <>
                <td className="px-3 py-2 text-right tabular-nums">{interval(row.success)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{interval(row.reward)}</td>
                {bestOf ? <td className="px-3 py-2 text-right tabular-nums" data-testid="best-of-k">{row.bestOfK ? `best-of-${row.k}: ${interval(row.bestOfK.success)}` : "–"}</td> : null}
              </>
            ) : (
              <>
                <td className="px-3 py-2 font-mono text-xs text-stone-600" data-testid="render-profile">
                  {row.run.render ? profileLabel(row.run.render) : "unknown (imported)"}
                </td>
                <td className={`px-3 py-2 font-mono text-xs ${row.run.embedder?.paperMetric === false ? "text-amber-800" : "text-stone-600"}`} data-testid="embedder">
                  {row.run.embedder?.label ?? "unknown (imported)"}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{interval(row.reward, false)}</td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {row.run.id === baseline ? (
                    "baseline"
                  ) : row.versusBaseline ? (
                    `${percent(row.versusBaseline.win_rate)} [${percent(row.versusBaseline.ci_low)}, ${percent(row.versusBaseline.ci_high)}] on ${row.versusBaseline.n}`
                  ) : row.notComparable ? (
                    <span title={row.notComparable} className="text-amber-800">
                      not comparable: other {row.notComparableBy ?? "render profile"}
                    </span>
                  ) : (
                    "–"
                  )}
                </td>
                {bestOf ? <td className="px-3 py-2 text-right tabular-nums" data-testid="best-of-k">{row.bestOfK ? `best-of-${row.k}: ${interval(row.bestOfK.reward, false)}` : "–"}</td> : null}
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const query = await searchParams;
  const baseline = Number(query.baseline) || undefined;
  const includePlayed = query.played === "1";
  const rows = await (await getStore()).runs.leaderboard(baseline, { includePlayed });
  const human = await humanRatings(await getStore());
  const backend = rows.filter((r) => r.run.benchmark === "backend");
  const allFrontend = rows.filter((r) => r.run.benchmark === "frontend");
  // Similarities are comparable only within one embedder: the table can show one at a time.
  const embedderOf = (r: LeaderboardRow) => r.run.embedder?.id ?? "unknown";
  const embedders = [...new Set(allFrontend.map(embedderOf))].sort();
  const embedder = embedders.find((e) => e === query.embedder);
  const frontend = embedder ? allFrontend.filter((r) => embedderOf(r) === embedder) : allFrontend;
  return (
    <>
      <LiveRefresh />
      <PageHeader title="Leaderboard">
        Every run with finished episodes. Intervals are 95%, over tasks (a task&apos;s samples are averaged first).{" "}
        <Link href="/compare" className="text-teal-700 underline">
          Compare two runs task by task
        </Link>
        .
      </PageHeader>
      <div className="mb-3">
        <IncludeSwitch label="Include played sessions" on={includePlayed} href={withQuery("/leaderboard", query, { played: !includePlayed })} />
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No scored runs yet">
          Finished benchmark runs are ranked here: success rate and % tests passed for backend, similarity and win rate for frontend. Start one with{" "}
          <Link href="/runs/new" className="text-teal-700 underline">
            New run
          </Link>
          .
        </EmptyState>
      ) : (
        <>
          {backend.length ? (
            <>
              <h2 className="mb-2 text-lg font-semibold text-stone-900">Backend programming</h2>
              <Table rows={backend} benchmark="backend" />
            </>
          ) : null}
          {allFrontend.length ? (
            <>
              <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
                <h2 className="text-lg font-semibold text-stone-900">Frontend design</h2>
                <form method="get" className="flex items-center gap-2 text-sm">
                  {includePlayed ? <input type="hidden" name="played" value="1" /> : null}
                  {embedder ? <input type="hidden" name="embedder" value={embedder} /> : null}
                  <label htmlFor="baseline" className="text-stone-600">
                    Baseline run
                  </label>
                  <select id="baseline" name="baseline" defaultValue={baseline ?? ""} className="rounded-md border border-stone-300 bg-white px-2 py-1">
                    <option value="">none</option>
                    {frontend.map((r) => (
                      <option key={r.run.id} value={r.run.id}>
                        {r.run.name}
                      </option>
                    ))}
                  </select>
                  <button type="submit" className="rounded-md bg-teal-700 px-3 py-1 text-white">
                    Set baseline
                  </button>
                </form>
              </div>
              {new Set(frontend.map((r) => (r.run.render ? profileLabel(r.run.render) : "unknown"))).size > 1 ? (
                <p role="alert" data-testid="leaderboard-profiles" className="mb-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  These runs were scored under different render profiles (see the column): similarities are comparable only between runs of one profile.
                  Rescore a run under another with <code className="font-mono">colbench rescore RUN --profile P --browser B</code>.
                </p>
              ) : null}
              {embedders.length > 0 ? (
                <>
                  <div className="mb-2 text-sm">
                    <FilterPills
                      label="Filter by embedder"
                      caption="embedder"
                      pills={[undefined, ...embedders].map((e) => ({ label: e ?? "all", href: withQuery("/leaderboard", query, { embedder: e }), current: e === embedder }))}
                    />
                  </div>
                  {!embedder && embedders.length > 1 ? (
                    <p role="alert" data-testid="leaderboard-embedders" className="mb-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                      These runs&apos; similarities come from different image embedders (see the column): only runs of one embedder are comparable, and only CLIP ViT-B/32&apos;s with the paper.
                    </p>
                  ) : null}
                </>
              ) : null}
              <Table rows={frontend} benchmark="frontend" baseline={baseline} />
            </>
          ) : null}
        </>
      )}
      <HumanPreference ratings={human} />
    </>
  );
}
