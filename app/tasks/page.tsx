import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { parseTaskSearch, searchHref } from "@/lib/store/task-search";
import { PageHeader } from "@/components/PageHeader";
import { BENCHMARKS, benchmarks } from "@/lib/benchmarks";
import { EmptyState } from "@/components/EmptyState";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { Pager } from "@/components/Pager";
import { TaskFilters } from "@/components/TaskFilters";
import { OfficialImport } from "@/components/OfficialImport";
import { currentViewer } from "@/app/_lib/viewer";
import { managesData } from "@/lib/access/policy";
import { officialDatasets, officialSource } from "@/lib/benchmarks/official";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tasks" };

export default async function TasksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = parseTaskSearch(await searchParams);
  const store = await getStore();
  const page = await store.tasks.list(query);
  const counts = page.total === 0 ? await store.tasks.counts() : null;
  const none = counts !== null && counts.total === 0;
  // Until the benchmark's own tasks are here, researchers are offered to fetch them (the samples aside).
  const manages = managesData(await currentViewer());
  // Offered for the datasets none of whose tasks are here yet (one that could not be fetched stays offered).
  const all = officialDatasets().map((d) => d.dataset);
  const imported = manages ? await Promise.all(all.map((d) => store.tasks.countFrom(officialSource(d, "")))) : [];
  const datasets = all.filter((_, i) => imported[i] === 0);
  const offerOfficial = manages && datasets.length > 0;
  return (
    <>
      <Link
        href="/import"
        className="float-right rounded-md border border-stone-300 bg-white px-4 py-2 text-sm hover:bg-stone-100"
      >
        Import a file
      </Link>
      <PageHeader title="Tasks">
        Each benchmark scores an answer against what the agent is not shown:{" "}
        {BENCHMARKS.map((name) => `${name}, ${benchmarks[name].hidden.summary}`).join("; ")}.
      </PageHeader>
      {manages ? <OfficialImport datasets={datasets} offered={offerOfficial} /> : null}
      <TaskFilters query={query} />
      {page.total === 0 ? (
        none ? (
          <EmptyState title="No tasks yet">
            Import a task file with{" "}
            <Link href="/import" className="text-teal-700 underline">
              Import a file
            </Link>
            , or the benchmark&apos;s own with the button above (from a terminal:{" "}
            <code className="font-mono">npx colbench import --official</code>).
          </EmptyState>
        ) : (
          <EmptyState title="No tasks match these filters">
            {counts!.total} tasks exist.{" "}
            <Link href="/tasks" className="text-teal-700 underline">
              Clear the filters
            </Link>
            .
          </EmptyState>
        )
      ) : (
        <>
          <p className="mb-2 text-sm text-stone-600" data-testid="task-total">
            {page.total} task{page.total === 1 ? "" : "s"}
          </p>
          <ul
            className="divide-y divide-stone-200 overflow-hidden rounded-lg border border-stone-200 bg-white"
            data-testid="task-list"
          >
            {page.items.map((task) => (
              <li key={task.id}>
                <Link
                  href={`/tasks/${task.id}`}
                  className="flex items-start gap-4 px-4 py-3 hover:bg-stone-50 focus-visible:bg-stone-50"
                >
                  <span className="w-12 shrink-0 pt-0.5 text-right font-mono text-xs text-stone-400">#{task.id}</span>
                  <span className="min-w-0 flex-1">
                    <span className="line-clamp-2 break-words text-sm text-stone-800">{task.problemDescription}</span>
                    <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-stone-500">
                      <BenchmarkBadge benchmark={task.benchmark} />
                      <span>{task.split}</span>
                      {task.testCount !== null ? <span>{task.testCount} tests</span> : null}
                      <span className="truncate">
                        {task.source}:{task.sourceIndex}
                      </span>
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={page.page} pages={page.pages} href={(n) => searchHref(query, { page: n })} />
        </>
      )}
    </>
  );
}
