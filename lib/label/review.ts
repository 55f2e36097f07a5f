import { mayReview } from "../access/policy";
import type { Viewer } from "../access/viewer";
import type { Store } from "../store";
import type { LabelRow } from "../store/labels";
import type { Choice, QueueRow } from "../store/queues";
import type { Verdict } from "../store/reviews";
import { decisions } from "./exports";

// A queue's review: its reviewers (and researchers, admins) see each pair's labels, accept or
// reject them, and decide the pairs people split on. What it changes is what the exports say
// (lib/label/exports.ts): rejected labels count in no majority, an adjudicated pair takes the
// reviewer's choice. Agreement statistics stay the people's own (every label, as given).

export interface BoardItem {
  itemId: number;
  /** a | b | tie | both_bad | split, or none when every label is rejected and nothing decided. */
  outcome: string;
  decidedBy: "majority" | "adjudication";
  adjudication: { choice: Choice; user: string; reason: string | null } | null;
  labels: Array<
    Pick<LabelRow, "id" | "user" | "choice" | "strength" | "comment" | "review" | "reviewNote" | "version">
  >;
}

const refused = (status: number, error: string) => ({ ok: false as const, status, error });

/** The queue's labelled pairs with their labels, split ones first (then by pair). */
export async function reviewBoard(
  store: Store,
  queue: QueueRow,
  options: { only?: "split" | "unreviewed" } = {},
): Promise<BoardItem[]> {
  const labels = (await store.labels.ofQueue(queue.id)).filter((l) => !l.item.gold);
  const adjudications = await store.labels.adjudications(queue.id);
  const byAdjudication = new Map(adjudications.map((a) => [a.itemId, a]));
  const outcomes = new Map(decisions(labels, adjudications).map((d) => [d.itemId, d]));
  const plain = new Map(decisions(labels).map((d) => [d.itemId, d.outcome]));
  const byItem = new Map<number, LabelRow[]>();
  for (const l of labels) byItem.set(l.itemId, [...(byItem.get(l.itemId) ?? []), l]);
  const board: BoardItem[] = [...byItem].map(([itemId, rows]) => {
    const a = byAdjudication.get(itemId);
    // Every label rejected and nothing decided: no outcome.
    const decided = outcomes.get(itemId);
    return {
      itemId,
      outcome: decided?.outcome ?? "none",
      decidedBy: decided?.decidedBy ?? "majority",
      adjudication: a ? { choice: a.choice, user: a.user, reason: a.reason } : null,
      labels: rows.map(({ id, user, choice, strength, comment, review, reviewNote, version }) => ({
        id,
        user,
        choice,
        strength,
        comment,
        review,
        reviewNote,
        version,
      })),
    };
  });
  const split = (b: BoardItem) => plain.get(b.itemId) === "split";
  const shown = board.filter((b) =>
    options.only === "split" ? split(b) : options.only === "unreviewed" ? b.labels.some((l) => !l.review) : true,
  );
  return shown.sort((x, y) => Number(split(y)) - Number(split(x)) || x.itemId - y.itemId);
}

async function reviewer(store: Store, viewer: Viewer, queue: QueueRow) {
  if (!mayReview(viewer, queue)) return null;
  return viewer.kind === "user" ? viewer.id : store.users.localId();
}

export async function reviewOne(
  store: Store,
  viewer: Viewer,
  queue: QueueRow,
  input: { labelId: number; verdict: Verdict | null; note?: string | null },
) {
  const userId = await reviewer(store, viewer, queue);
  if (userId === null) return refused(403, "you do not review this queue");
  const done = await store.labels.review({
    queueId: queue.id,
    labelId: input.labelId,
    reviewerId: userId,
    verdict: input.verdict,
    note: input.note?.trim() || null,
  });
  return done ? { ok: true as const } : refused(404, `label ${input.labelId} is not a label of queue ${queue.name}`);
}

export async function adjudicate(
  store: Store,
  viewer: Viewer,
  queue: QueueRow,
  input: { itemId: number; choice: Choice; reason?: string | null },
) {
  const userId = await reviewer(store, viewer, queue);
  if (userId === null) return refused(403, "you do not review this queue");
  const done = await store.labels.adjudicate({
    queueId: queue.id,
    itemId: input.itemId,
    userId,
    choice: input.choice,
    reason: input.reason?.trim() || null,
  });
  return done ? { ok: true as const } : refused(404, `pair ${input.itemId} is not a pair of queue ${queue.name}`);
}
