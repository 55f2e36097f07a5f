import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { HiddenInformation } from "@/components/HiddenInformation";
import { currentViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

async function load(params: Params["params"]) {
  const id = Number.parseInt((await params).id, 10);
  if (!Number.isSafeInteger(id)) notFound();
  const task = await (await getStore()).tasks.get(id);
  if (!task) notFound();
  return task;
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Task #${(await params).id}` };
}

export default async function TaskPage({ params }: Params) {
  const task = await load(params);
  const hidden = seesHidden(await currentViewer());
  // Only what an agent may see is in this page; the hidden parts arrive on an explicit request.
  return (
    <article>
      <Link href={`/tasks?benchmark=${task.benchmark}`} className="text-sm text-teal-700 hover:underline">
        ← {task.benchmark} tasks
      </Link>
      <header className="mb-4 mt-2 flex items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">Task #{task.id}</h1>
        <BenchmarkBadge benchmark={task.benchmark} />
        <span className="text-sm text-stone-500">
          {task.split} · {task.source}:{task.sourceIndex}
          {task.testCases ? ` · ${task.testCases.length} hidden tests` : ""}
        </span>
      </header>
      <section aria-labelledby="description" className="rounded-lg border border-stone-200 bg-white p-5">
        <h2 id="description" className="mb-2 text-sm font-medium text-stone-500">
          Problem description (what the agent sees)
        </h2>
        <p className="whitespace-pre-wrap text-stone-800" data-testid="problem-description">
          {task.problemDescription}
        </p>
      </section>
      {hidden ? (
        <HiddenInformation taskId={task.id} benchmark={task.benchmark} />
      ) : (
        <p className="mt-4 text-sm text-stone-500" data-testid="hidden-withheld">
          The reference answer, tests and target page are shown to researchers and admins only.
        </p>
      )}
    </article>
  );
}
