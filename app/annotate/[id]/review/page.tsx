import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { mayReview } from "@/lib/access/policy";
import { seesHidden } from "@/lib/access/viewer";
import { currentViewer } from "@/app/_lib/viewer";
import { reviewBoard } from "@/lib/label/review";
import { pairView } from "@/lib/label/views";
import { PairSides } from "@/components/label/PairSides";
import { ReviewItem } from "@/components/label/ReviewItem";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Review" };

const PAGE = 10;

/** A queue's review: its pairs with their labels (split ones first), ten at a time, each pair shown on request. */
export default async function ReviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ only?: string; page?: string }>;
}) {
  const id = Number.parseInt((await params).id, 10);
  const { only, page } = await searchParams;
  const store = await getStore();
  const queue = Number.isSafeInteger(id) ? await store.queues.find(id) : null;
  const viewer = await currentViewer();
  if (!queue || !mayReview(viewer, queue)) notFound();
  const filter = only === "split" || only === "unreviewed" ? only : undefined;
  const board = await reviewBoard(store, queue, { only: filter });
  const at = Math.max(0, Number.parseInt(page ?? "0", 10) || 0);
  const shown = board.slice(at * PAGE, at * PAGE + PAGE);
  // A and B are the pair's stored sides here, as the labels name them.
  const views = await Promise.all(
    shown.map(async (b) => {
      const content = await store.queues.item(b.itemId);
      return (
        content && pairView(content, { leftIsA: true, hidden: seesHidden(viewer), hidesScores: queue.hidesScores })
      );
    }),
  );
  const link = (o: string | undefined, p = 0) =>
    `/annotate/${queue.id}/review?${new URLSearchParams({ ...(o ? { only: o } : {}), ...(p ? { page: String(p) } : {}) })}`;
  return (
    <article data-testid="review">
      <header className="mb-3 flex flex-wrap items-baseline gap-3">
        <Link href="/annotate" className="text-sm text-teal-700 hover:underline">
          ← queues
        </Link>
        <h1 className="text-xl font-semibold tracking-tight text-stone-900">Review · {queue.name}</h1>
        <span className="text-sm text-stone-500">
          {board.length} pairs{filter ? ` (${filter})` : ""} · a rejected label counts in no export; a decided pair
          exports the decision
        </span>
      </header>
      <nav className="mb-3 flex gap-3 text-sm">
        {[
          [undefined, "all"],
          ["split", "split"],
          ["unreviewed", "not reviewed"],
        ].map(([o, text]) => (
          <Link
            key={text}
            href={link(o)}
            className={o === filter ? "font-semibold text-stone-900" : "text-teal-700 hover:underline"}
          >
            {text}
          </Link>
        ))}
      </nav>
      {shown.map((b, i) => (
        <section key={b.itemId} className="mb-6 border-t border-stone-200 pt-3">
          <h2 className="text-base font-semibold">Pair {b.itemId}</h2>
          <ReviewItem queueId={queue.id} item={b} />
          {views[i] ? (
            <details className="mt-2">
              <summary className="cursor-pointer text-sm text-stone-600">Show the pair (A and B as stored)</summary>
              <div className="mt-2">
                <PairSides pair={views[i]} />
              </div>
            </details>
          ) : null}
        </section>
      ))}
      {board.length > (at + 1) * PAGE ? (
        <Link href={link(filter, at + 1)} className="text-sm text-teal-700 hover:underline">
          Next {PAGE} →
        </Link>
      ) : null}
    </article>
  );
}
