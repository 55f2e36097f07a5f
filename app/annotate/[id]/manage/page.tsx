import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { seesHidden } from "@/lib/access/viewer";
import { currentViewer } from "@/app/_lib/viewer";
import { PageHeader } from "@/components/PageHeader";
import { Pager } from "@/components/Pager";
import { SortableTable } from "@/components/table/SortableTable";
import { QueueSettings, type QueueState } from "@/components/label/manage/QueueSettings";
import { QuotaSetting } from "@/components/label/QuotaSetting";
import { QueuePeople } from "@/components/label/manage/QueuePeople";
import { AddPairsForm } from "@/components/label/manage/AddPairsForm";
import { DeleteQueue } from "@/components/label/manage/DeleteQueue";
import { ITEM_COLUMNS, ITEM_SORTS, itemRows } from "@/lib/label/items-table";
import type { ItemOrder } from "@/lib/store/queue-items";
import { parseSort } from "@/lib/table/table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manage queue" };

/** Pairs per page of the browser (`?size=` from 5 to 100). */
const PAGE = 25;

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** A queue's lead runs it here: its state, training mode, instructions, members, more pairs, delete; and its pairs with their labels. */
export default async function ManageQueuePage({ params, searchParams }: Props) {
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  // Researchers and admins only (the gate refuses annotators before this page runs).
  if (!seesHidden(await currentViewer()) || !Number.isSafeInteger(id)) notFound();
  const queue = (await store.queues.list({ archived: true })).find((q) => q.id === id);
  if (!queue) notFound();
  const query = await searchParams;
  const order = parseSort(query, ITEM_SORTS, { column: "ordinal", dir: "asc" });
  const page = Math.max(1, Number.parseInt(typeof query.page === "string" ? query.page : "1", 10) || 1);
  const asked = Number.parseInt(typeof query.size === "string" ? query.size : "", 10);
  const size = Number.isSafeInteger(asked) ? Math.min(100, Math.max(5, asked)) : PAGE;
  const [browsed, runs, users] = await Promise.all([
    store.queues.browse(queue.id, {
      order: order?.column as ItemOrder,
      dir: order?.dir,
      offset: (page - 1) * size,
      limit: size,
    }),
    store.runs.list(),
    store.users.list(),
  ]);
  const state: QueueState = queue.archivedAt ? "archived" : queue.closedAt ? "closed" : "open";
  const sorted = `sort=${order?.column ?? "ordinal"}&dir=${order?.dir ?? "asc"}${size === PAGE ? "" : `&size=${size}`}`;
  const base = `/annotate/${queue.id}/manage`;
  return (
    <article data-testid="manage-queue">
      <Link href="/annotate" className="text-sm text-teal-700 hover:underline">
        ← queues
      </Link>
      <PageHeader title={`Manage · ${queue.name}`}>
        {queue.kind} pairs · {queue.benchmark} · {queue.items} pairs{queue.gold ? ` (${queue.gold} gold)` : ""} ·{" "}
        {queue.given} of {queue.wanted} labels · {queue.labels} labels in all ·{" "}
        <Link href={`/annotate/${queue.id}`} className="text-teal-700 underline">
          desk
        </Link>{" "}
        ·{" "}
        <Link href={`/annotate/${queue.id}/agreement`} className="text-teal-700 underline">
          agreement
        </Link>{" "}
        ·{" "}
        <Link href={`/annotate/${queue.id}/review`} className="text-teal-700 underline">
          review
        </Link>
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-2">
        <QueueSettings
          queueId={queue.id}
          state={state}
          trainingMode={queue.trainingMode}
          gold={queue.gold}
          instructions={queue.instructions}
        />
        <div className="grid content-start gap-4">
          <QueuePeople queueId={queue.id} members={queue.members.map((m) => m.name)} users={users.map((u) => u.name)} />
          <QuotaSetting queueId={queue.id} quota={queue.quota} />
          <AddPairsForm
            queueId={queue.id}
            kind={queue.kind}
            runs={runs.filter((r) => r.done > 0 && r.benchmark === queue.benchmark).map((r) => r.name)}
          />
        </div>
      </div>
      <section className="mt-6" data-testid="queue-items">
        <h2 className="mb-2 text-lg font-semibold">Pairs and their labels</h2>
        <p className="mb-2 text-xs text-stone-500">
          A and B are each pair&apos;s stored sides: every person saw them in an order of their own.
        </p>
        <SortableTable
          columns={ITEM_COLUMNS}
          rows={itemRows(browsed.items)}
          name={`${queue.name}.pairs`}
          testId="items"
          dense
          serverSort={{ order, base: `${base}?${sorted}` }}
          exportHrefs={{
            csv: `/api/queues/${queue.id}/items?format=csv&${sorted}`,
            json: `/api/queues/${queue.id}/items?format=json&${sorted}`,
          }}
          caption={`${browsed.total} pairs`}
        />
        <Pager
          page={page}
          pages={Math.max(1, Math.ceil(browsed.total / size))}
          href={(n) => `${base}?${sorted}&page=${n}`}
        />
      </section>
      <div className="mt-6">
        <DeleteQueue queueId={queue.id} name={queue.name} labels={queue.labels} />
      </div>
    </article>
  );
}
