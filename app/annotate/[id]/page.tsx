import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { mayLabel } from "@/lib/access/policy";
import { currentViewer } from "@/app/_lib/viewer";
import { LabelDesk } from "@/components/label/LabelDesk";
import { Markdown } from "@/components/label/Markdown";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Label · queue ${(await params).id}` };
}

export default async function LabelPage({ params }: Params) {
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const queue = Number.isSafeInteger(id) ? await store.queues.find(id) : null;
  const viewer = await currentViewer();
  // Someone who may not label it learns nothing of it, not even that it exists.
  if (!queue || !mayLabel(viewer, queue)) notFound();
  const progress = { mine: 0, given: 0, wanted: 0, left: 0 };
  return (
    <article>
      <Link href="/annotate" className="text-sm text-teal-700 hover:underline">
        ← queues
      </Link>
      <header className="mb-3 mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">{queue.name}</h1>
        <span className="text-sm text-stone-500">
          {queue.kind} pairs · {queue.benchmark}
        </span>
      </header>
      {queue.instructions.trim() ? (
        <details open className="mb-4 rounded-lg border border-stone-200 bg-white p-4">
          <summary className="cursor-pointer text-sm font-medium text-stone-600">Instructions</summary>
          <div className="mt-2">
            <Markdown text={queue.instructions} />
          </div>
        </details>
      ) : null}
      <LabelDesk queueId={queue.id} initial={progress} />
    </article>
  );
}
