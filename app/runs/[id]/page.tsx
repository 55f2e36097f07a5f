import Link from "next/link";
import { notFound } from "next/navigation";
import { getStore } from "@/lib/store";
import { SCORE_BANDS } from "@/lib/store/runs";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { percent, reward } from "@/components/format";
import { RunLive } from "@/components/RunLive";

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
  const run = Number.isSafeInteger(id) ? (await store.runs.list()).find((r) => r.id === id) : undefined;
  if (!run) notFound();
  const status = STATUSES.find((s) => s === query.status);
  const score = SCORE_BANDS.find((s) => s === query.score);
  const page = await store.runs.episodes(run.id, { page: Number(query.page) || 1, status, score });
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
      </header>
      <RunLive runId={run.id} status={run.status} />
      <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[
          ["Episodes done", `${run.done}/${run.total}`],
          ["Failed", String(run.failed)],
          ["Mean reward", reward(run.meanReward)],
          [run.benchmark === "backend" ? "Success rate" : "Agent", run.benchmark === "backend" ? percent(run.successRate) : (run.agent ?? "imported")],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-stone-200 bg-white p-4">
            <dt className="text-xs text-stone-500">{label}</dt>
            <dd className="mt-1 truncate text-xl font-semibold text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mb-3 flex flex-wrap gap-6 text-sm">
        <nav aria-label="Filter by status" className="flex gap-2">
          {[undefined, ...STATUSES].map((s) => (
            <Link key={s ?? "all"} href={href({ status: s, page: 1 })} aria-current={s === status ? "page" : undefined} className={`rounded-md px-3 py-1 ${s === status ? "bg-teal-700 text-white" : "bg-white text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100"}`}>
              {s ?? "all"}
            </Link>
          ))}
        </nav>
        <nav aria-label="Filter by score" className="flex items-center gap-2">
          <span className="text-stone-500">score</span>
          {[undefined, ...SCORE_BANDS].map((s) => (
            <Link key={s ?? "any"} href={href({ score: s, page: 1 })} aria-current={s === score ? "page" : undefined} className={`rounded-md px-3 py-1 ${s === score ? "bg-teal-700 text-white" : "bg-white text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100"}`}>
              {s === undefined ? "any" : s === "full" ? "1.0" : s === "zero" ? "0" : "between"}
            </Link>
          ))}
        </nav>
      </div>
      <table className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm" data-testid="episodes-table">
        <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            <th className="px-3 py-2">Episode</th>
            <th className="px-3 py-2">Task</th>
            <th className="px-3 py-2 text-right">Sample</th>
            <th className="px-3 py-2 text-right">Turns</th>
            <th className="px-3 py-2 text-right">Reward</th>
            <th className="px-3 py-2">Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {page.items.map((e) => (
            <tr key={e.id} className="hover:bg-stone-50">
              <td className="px-3 py-1.5">
                <Link href={`/episodes/${e.id}`} className="font-mono text-teal-800 hover:underline">
                  #{e.id}
                </Link>
              </td>
              <td className="max-w-md truncate px-3 py-1.5 text-stone-700" title={e.problemDescription}>
                <span className="font-mono text-xs text-stone-400">#{e.taskId}</span> {e.problemDescription}
              </td>
              <td className="px-3 py-1.5 text-right tabular-nums">{e.sample}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{e.turns}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{reward(e.reward)}</td>
              <td className="px-3 py-1.5 text-stone-600">{e.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
        <span className="text-stone-600">
          Page {page.page} of {page.pages} ({page.total} episodes)
        </span>
        <span className="flex gap-2">
          {page.page > 1 ? <Link className="rounded-md border border-stone-300 bg-white px-3 py-1.5" href={href({ page: page.page - 1 })}>Previous</Link> : null}
          {page.page < page.pages ? <Link className="rounded-md border border-stone-300 bg-white px-3 py-1.5" href={href({ page: page.page + 1 })}>Next</Link> : null}
        </span>
      </nav>
    </>
  );
}
