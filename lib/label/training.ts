import type { Store } from "../store";
import type { Side } from "../store/labels";
import type { Choice } from "../store/queues";
import type { Desk } from "./desk";

// Training mode: once a person's label on a gold pair is stored, the desk tells them whether it
// matched the known answer and why that is the answer, in the sides as they saw them. It is read
// from the stored label, so nothing says a pair is gold before its label is in. A gold label they
// have been told about cannot be taken back or changed: that would turn the answer into theirs.

export interface GoldFeedback {
  matched: boolean;
  /** The known answer and theirs, as the person saw the sides. */
  answer: Side;
  yours: Side;
  reason: string | null;
}

const asSeen = (choice: Choice, leftIsA: boolean): Side =>
  choice === "a" ? (leftIsA ? "left" : "right") : choice === "b" ? (leftIsA ? "right" : "left") : choice;

/** What a training queue tells the person after their label on `itemId` is stored; undefined otherwise. */
export async function goldFeedback(store: Store, desk: Desk, itemId: number): Promise<GoldFeedback | undefined> {
  if (!desk.queue.trainingMode) return undefined;
  const stored = await store.labels.storedGold(desk.queue.id, itemId, desk.userId);
  if (!stored) return undefined;
  return {
    matched: stored.choice === stored.gold,
    answer: asSeen(stored.gold, stored.leftIsA),
    yours: asSeen(stored.choice, stored.leftIsA),
    reason: stored.reason,
  };
}

export const TOLD =
  "this was a gold pair and you have been shown its answer: in training mode its label stays as you gave it";

/** Why undo is refused at a training queue: the latest label is on a gold pair; null when it may go. */
export async function undoRefused(store: Store, desk: Desk): Promise<string | null> {
  if (!desk.queue.trainingMode) return null;
  return (await store.labels.latestIsGold(desk.queue.id, desk.userId)) ? `Nothing taken back: ${TOLD}.` : null;
}

/** Why changing the label on `itemId` is refused at a training queue; null when it may change. */
export async function reviseRefused(store: Store, desk: Desk, itemId: number): Promise<string | null> {
  if (!desk.queue.trainingMode) return null;
  // Asked of the person's own stored label only, so the refusal says nothing of a pair they have not labelled.
  return (await store.labels.storedGold(desk.queue.id, itemId, desk.userId)) ? `Not changed: ${TOLD}.` : null;
}
