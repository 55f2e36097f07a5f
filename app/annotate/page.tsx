import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { seesHidden } from "@/lib/access/viewer";
import { currentViewer } from "@/app/_lib/viewer";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { NewQueueForm } from "@/components/label/NewQueueForm";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Annotate" };

export default async function AnnotatePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await currentViewer();
  const store = await getStore();
  const researcher = seesHidden(viewer);
  // Researchers may list archived queues too (to open one again from its page).
  const archived = researcher && (await searchParams).archived === "1";
  // Annotators see the queues they belong to; researchers and admins see every queue.
  const queues = await store.queues.list(
    viewer.kind === "user" && !researcher ? { memberId: viewer.id } : { archived },
  );
  const [runs, users] = researcher ? await Promise.all([store.runs.list(), store.users.list()]) : [[], []];
  return (
    <>
      <PageHeader title="Annotate">
        Pairs to judge side by side: which is better, A or B, a tie, or both bad. Keys 1 2 3 4, u to undo, s to skip, l
        for later, b for broken, h for your labels.
      </PageHeader>
      {researcher ? (
        <p className="mb-2 text-right text-xs">
          <Link href={archived ? "/annotate" : "/annotate?archived=1"} className="text-teal-700 underline">
            {archived ? "hide archived queues" : "show archived queues"}
          </Link>
        </p>
      ) : null}
      {researcher ? (
        <NewQueueForm runs={runs.filter((r) => r.done > 0).map((r) => r.name)} users={users.map((u) => u.name)} />
      ) : null}
      {queues.length === 0 ? (
        <EmptyState title="Nothing to label yet">
          {researcher ? (
            <>
              Make a queue above, or with{" "}
              <code className="font-mono">
                npx colbench queues create NAME --runs A,B --overlap 2 --members ann1,ann2
              </code>
              .
            </>
          ) : (
            "No queue has you as a member yet: ask a researcher to add you."
          )}
        </EmptyState>
      ) : (
        <ul className="space-y-3" data-testid="queues">
          {queues.map((q) => (
            <li key={q.id} className="rounded-lg border border-stone-200 bg-white p-4" data-testid="queue">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link href={`/annotate/${q.id}`} className="text-lg font-medium text-teal-800 hover:underline">
                  {q.name}
                </Link>
                <span className="text-sm text-stone-500">
                  {q.kind} pairs · {q.items} pairs{q.gold ? ` (${q.gold} gold)` : ""} · {q.overlap} label
                  {q.overlap > 1 ? "s" : ""} each
                  {q.showsHidden ? " · shows hidden information" : ""}
                  {q.hidesScores ? " · automatic scores hidden" : ""}
                  {q.trainingMode ? " · training" : ""}
                  {q.archivedAt ? " · archived" : q.closedAt ? " · closed" : ""}
                </span>
              </div>
              <div className="mt-2 h-2 overflow-hidden rounded bg-stone-200">
                <div
                  className="h-full bg-teal-600"
                  style={{ width: `${q.wanted ? ((100 * q.given) / q.wanted).toFixed(1) : 0}%` }}
                />
              </div>
              <p className="mt-1 text-xs text-stone-500">
                {q.given} of {q.wanted} labels
                {researcher ? (
                  <>
                    {" · members: "}
                    {q.members.map((m) => m.name).join(", ") || "none"}
                    {" · "}
                    <Link href={`/annotate/${q.id}/manage`} className="text-teal-700 underline">
                      manage
                    </Link>
                    {" · "}
                    <Link href={`/annotate/${q.id}/agreement`} className="text-teal-700 underline">
                      agreement
                    </Link>
                    {" · "}
                    <Link href={`/annotate/${q.id}/review`} className="text-teal-700 underline">
                      review
                    </Link>
                    {" · "}
                    <a href={`/api/queues/${q.id}/export?format=raw`} className="text-teal-700 underline">
                      raw labels
                    </a>
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
