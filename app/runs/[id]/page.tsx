import Link from "next/link";
import { notFound } from "next/navigation";
import { getStore } from "@/lib/store";
import { SCORE_BANDS } from "@/lib/store/runs";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { percent } from "@/components/format";
import { benchmarks } from "@/lib/benchmarks";
import { RunLive } from "@/components/RunLive";
import { PipelinePanel } from "@/components/PipelinePanel";
import { currentViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { EpisodesTable } from "@/components/EpisodesTable";
import { FilterPills } from "@/components/FilterPills";
import { Pager } from "@/components/Pager";
import { EmptyState } from "@/components/EmptyState";
import { RunActions } from "@/components/RunActions";
import { RunCharts } from "@/components/RunCharts";
import { runDashboard } from "@/lib/runs/dashboard";
import { runConfigSchema } from "@/lib/benchmarks/run-config";
import { queueView } from "@/lib/runs/queue-view";
import { paceOf } from "@/lib/runs/pace";
import { RunWorkers } from "@/components/RunWorkers";
import { RunSpec } from "@/components/RunSpec";
import { loadPipelineView } from "@/lib/sweet/pipeline-view";
import { getPipelineJobs } from "@/lib/sweet/jobs";

/** The latest step's news in this process, if it has pipeline jobs (the studio's server does). */
function pipelineStatus(runId: number) {
  try {
    return getPipelineJobs().status(runId);
  } catch {
    return null;
  }
}
import { describeWait } from "@/lib/colbench/failure";

export const dynamic = "force-dynamic";

const STATUSES = ["done", "failed", "running", "pending"] as const;

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const id = Number.parseInt((await params).id, 10);
  const query = await searchParams;
  const store = await getStore();
  // Its figures are counted once per revision of the run, not at every visit (lib/store/run-memo.ts).
  const kept = await store.runs.kept(id);
  const run = await kept.summary();
  if (!run) notFound();
  const manages = seesHidden(await currentViewer());
  const now = new Date();
  // One pace for the charts and the Workers panel alike.
  const pace = paceOf(await kept.paceFigures());
  const status = STATUSES.find((s) => s === query.status);
  const score = SCORE_BANDS.find((s) => s === query.score);
  // Asked together: each statement waits its turn at the database, so one round of them, not several one after another.
  const [row, figures, queue, span, progress, page] = await Promise.all([
    kept.row(),
    kept.figures(now),
    queueView(store, run.id, pace),
    kept.span(),
    // Researchers' panel: where SWEET-RL's steps stand, counted from what they stored.
    manages ? loadPipelineView(store, run, kept) : null,
    kept.episodes({ page: Number(query.page) || 1, status, score }),
  ]);
  const config = runConfigSchema.safeParse(row?.config).data;
  const prices = config?.prices;
  // A similarity means nothing without the embedder that made it (and the weight-free one is not the paper's).
  const similarityBy = run.embedder ? `by ${run.embedder.label}` : undefined;
  const rewardRule = benchmarks[run.benchmark].reward;
  const formatted = (value: number | null) => (value === null ? "–" : rewardRule.format(value));
  const dashboard = runDashboard(figures, { prices, pace: run.status === "running" ? pace : null, now });
  const pipeline = progress ? { ...progress, last: pipelineStatus(run.id) } : null;
  const href = (patch: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    const merged = { status, score, page: page.page, ...patch };
    if (merged.status) params.set("status", String(merged.status));
    if (merged.score) params.set("score", String(merged.score));
    if (merged.page && Number(merged.page) > 1) params.set("page", String(merged.page));
    const text = params.toString();
    return `/runs/${run.id}${text ? `?${text}` : ""}`;
  };
  return (
    <>
      <Link href="/runs" className="text-sm text-teal-700 hover:underline">
        ← runs
      </Link>
      <header className="mb-4 mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">{run.name}</h1>
        <BenchmarkBadge benchmark={run.benchmark} />
        <span className="text-sm text-stone-500">{run.status}</span>
        {run.kind === "played" ? (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">played session</span>
        ) : null}
        {manages ? (
          <span className="ml-auto">
            <RunActions runId={run.id} name={run.name} archived={run.archivedAt !== null} episodes={run.total} />
          </span>
        ) : null}
      </header>
      {run.archivedAt ? (
        <p
          className="mb-4 rounded-lg border border-stone-300 bg-stone-100 px-4 py-2 text-sm text-stone-700"
          data-testid="archived-banner"
        >
          Archived on {run.archivedAt.toISOString().slice(0, 10)}: this run is hidden from the runs list, the
          Leaderboard and Compare until it is restored.
        </p>
      ) : null}
      {run.waiting ? (
        <p
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900"
          data-testid="waiting-banner"
        >
          {run.waiting.episodes} episode{run.waiting.episodes === 1 ? "" : "s"}{" "}
          {describeWait(run.waiting.wait, now.getTime())}. They go on by themselves when it answers again; only after{" "}
          {Math.round((config?.giveUpSeconds ?? 600) / 60)} min of outage do they fail.
        </p>
      ) : null}
      <RunLive runId={run.id} status={run.status} failed={run.failed} ended={run.done + run.failed} />
      {queue ? <RunWorkers view={queue} live={run.status === "running"} /> : null}
      <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-5" data-testid="run-figures">
        {(
          [
            ["Episodes done", `${run.done}/${run.total}`],
            ["Failed", String(run.failed)],
            [`Mean ${rewardRule.measure}`, formatted(run.meanReward), similarityBy],
            // A graded benchmark has no success rate: its place names the agent.
            rewardRule.hasSuccess
              ? [`${rewardRule.name} rate`, percent(run.successRate)]
              : ["Agent", run.agent ?? "imported"],
            ...(dashboard.k > 1
              ? [
                  rewardRule.hasSuccess
                    ? [`Best-of-${dashboard.k} ${rewardRule.name.toLowerCase()}`, percent(dashboard.bestOfK.success)]
                    : [
                        `Best-of-${dashboard.k} ${rewardRule.measure}`,
                        formatted(dashboard.bestOfK.reward),
                        similarityBy,
                      ],
                ]
              : []),
          ] as Array<[string, string, string | undefined]>
        ).map(([label, value, note]) => (
          <div key={label} className="min-w-0 rounded-lg border border-stone-200 bg-white p-4">
            <dt className="text-xs text-stone-500">{label}</dt>
            <dd className="mt-1 truncate text-xl font-semibold text-stone-900">{value}</dd>
            {note ? (
              <dd className="mt-1 text-xs text-stone-500" data-testid="figure-embedder">
                {note}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
      <RunSpec runId={run.id} config={row?.config} createdAt={run.createdAt} span={span} prompts={manages} />
      {pipeline ? <PipelinePanel runId={run.id} initial={pipeline} /> : null}
      {dashboard.done > 0 || dashboard.pace ? <RunCharts dashboard={dashboard} benchmark={run.benchmark} /> : null}
      <div className="mb-3 flex flex-wrap gap-6 text-sm">
        <FilterPills
          label="Filter by status"
          pills={[undefined, ...STATUSES].map((s) => ({
            label: s ?? "all",
            href: href({ status: s, page: 1 }),
            current: s === status,
          }))}
        />
        <FilterPills
          label="Filter by score"
          caption="score"
          pills={[undefined, ...SCORE_BANDS].map((s) => ({
            label: s === undefined ? "any" : s === "full" ? "1.0" : s === "zero" ? "0" : "between",
            href: href({ score: s, page: 1 }),
            current: s === score,
          }))}
        />
      </div>
      {page.total === 0 ? (
        <EmptyState title={status || score ? "No episode matches these filters" : "No episodes yet"}>
          {status || score ? (
            <Link href={`/runs/${run.id}`} className="text-teal-700 underline">
              Clear the filters
            </Link>
          ) : (
            "Episodes appear here as the run makes them."
          )}
        </EmptyState>
      ) : (
        <EpisodesTable rows={page.items} />
      )}
      <Pager page={page.page} pages={page.pages} href={(n) => href({ page: n })}>
        {` (${page.total} episodes)`}
      </Pager>
    </>
  );
}
