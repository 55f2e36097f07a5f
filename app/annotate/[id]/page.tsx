import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { mayLabel } from "@/lib/access/policy";
import { currentViewer } from "@/app/_lib/viewer";
import { LabelDesk } from "@/components/label/LabelDesk";
import { Markdown } from "@/components/label/Markdown";
import { InstructionsBox } from "@/components/label/InstructionsBox";
import { parseLabelSchema } from "@/lib/label/schema";

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
  const progress = { mine: 0, given: 0, wanted: 0, left: 0, quota: queue.quota, counted: null };
  return (
    <article>
      <header className="mb-2 flex flex-wrap items-baseline gap-3">
        <Link href="/annotate" className="text-sm text-teal-700 hover:underline">
          ← queues
        </Link>
        <h1 className="text-xl font-semibold tracking-tight text-stone-900">{queue.name}</h1>
        <span className="text-sm text-stone-500">
          {queue.kind} pairs · {queue.benchmark}
        </span>
      </header>
      {queue.instructions.trim() ? (
        <InstructionsBox queueId={queue.id}>
          <Markdown text={queue.instructions} />
        </InstructionsBox>
      ) : null}
      <LabelDesk
        queueId={queue.id}
        initial={progress}
        schema={parseLabelSchema(queue.labelSchema, `queue ${queue.name}`)}
      />
    </article>
  );
}
