import { labelsEveryQueue, queueShowsHidden, mayLabel } from "../access/policy";
import type { Viewer } from "../access/viewer";
import type { Store } from "../store";
import type { Assigned, MyLabel, Progress, Side, StoreLabelResult } from "../store/labels";
import type { QueueRow } from "../store/queues";
import {
  answerProblem,
  isPlain,
  parseLabelSchema,
  type CriterionSide,
  type LabelSchema,
  type Strength,
} from "./schema";
import { pausedBecause } from "./gold";
import { pairView, type PairView } from "./views";
import { goldFeedback, reviseRefused, undoRefused, type GoldFeedback } from "./training";

// The labelling desk: what the page's requests do. Each answers with the pair to show next (the
// page holds one pair ahead, so a key press never waits for a pair to load) and the progress.

/** How long a pair stays held for a person whose tab stops renewing it (an open tab renews every minute). */
export const LEASE_MS = Number(process.env.COLBENCH_LABEL_LEASE_S ?? 180) * 1000;

export interface Desk {
  queue: QueueRow;
  userId: number;
  hidden: boolean;
  /** What a label holds beyond the choice, and what it requires. */
  schema: LabelSchema;
  /** The coin that mixes gold pairs in (tests fix it). */
  random?: () => number;
}

/** Why a desk does not open: the same words whichever way a request found it out. */
const missing = (queueId: number) => ({ status: 404, error: `no queue ${queueId}` });
const outsider = () => ({ status: 403, error: "you are not a member of this queue" });

const personOf = async (store: Store, viewer: Viewer) => (viewer.kind === "user" ? viewer.id : store.users.localId());

/** The person labelling: a signed-in user, or in local mode the person at the machine. */
export async function openDesk(
  store: Store,
  viewer: Viewer,
  queueId: number,
): Promise<Desk | { status: number; error: string }> {
  const queue = Number.isSafeInteger(queueId) ? await store.queues.find(queueId) : null;
  if (!queue) return missing(queueId);
  if (!mayLabel(viewer, queue)) return outsider();
  const paused =
    queue.goldThreshold === null
      ? null
      : pausedBecause(queue, await store.labels.goldStanding(queue.id, await personOf(store, viewer)));
  if (paused) return { status: 423, error: paused };
  if (queue.closedAt)
    return {
      status: 409,
      error: `queue ${queue.name} is closed: its labels are kept, and no pair is handed out or labelled`,
    };
  const userId = await personOf(store, viewer);
  const schema = parseLabelSchema(queue.labelSchema, `queue ${queue.name}: labelSchema`);
  return { queue, userId, hidden: queueShowsHidden(viewer, queue), schema };
}

async function viewOf(store: Store, desk: Desk, assigned: Assigned): Promise<PairView | null> {
  const content = await store.queues.item(assigned.itemId);
  return content
    ? pairView(content, { leftIsA: assigned.leftIsA, hidden: desk.hidden, hidesScores: desk.queue.hidesScores })
    : null;
}

/**
 * The next pair for this person that the page does not hold yet: one they hold already (after a
 * reload or a restart), else a gold pair at the queue's rate, else a free slot. Null: nothing left.
 */
export async function nextPair(store: Store, desk: Desk, holding: number[]): Promise<PairView | null> {
  let assigned: Assigned | null = null;
  if (desk.queue.goldRate > 0 && (desk.random ?? Math.random)() < desk.queue.goldRate) {
    const open = await store.labels.open(desk.queue.id, desk.userId, LEASE_MS);
    assigned =
      open.find((a) => !holding.includes(a.itemId)) ?? (await store.labels.claimGold(desk.queue.id, desk.userId));
  }
  // The common case is one statement: what this person holds already, else a free slot.
  assigned ??= await store.labels.next(desk.queue.id, desk.userId, LEASE_MS, holding);
  return assigned ? viewOf(store, desk, assigned) : null;
}

export type LabelOutcome =
  | {
      ok: true;
      duplicate: boolean;
      next: PairView | null;
      progress: Progress;
      kept?: { side: Side; choice: string };
      /** A training queue's word on a gold pair, once its label is stored (lib/label/training.ts). */
      feedback?: GoldFeedback;
    }
  | { ok: false; status: number; error: string };

type KeyPress = {
  itemId: number;
  side: Side;
  comment?: string | null;
  ms: number;
  holding: number[];
  strength?: Strength | null;
  criteria?: Record<string, CriterionSide> | null;
};

/** A key press that carries more than the choice is checked against the queue's schema first. */
const carriesMore = (input: KeyPress) =>
  Boolean(input.strength || (input.criteria && Object.keys(input.criteria).length));

const misfit = (desk: Desk, input: KeyPress): LabelOutcome | null => {
  const problem = answerProblem(desk.schema, input);
  return problem ? { ok: false, status: 400, error: problem } : null;
};

/** The label a key press stores, and the pairs the next one must not be: those the page holds and this one. */
function pressed(queueId: number, userId: number, input: KeyPress) {
  return {
    given: {
      queueId,
      itemId: input.itemId,
      userId,
      side: input.side,
      comment: input.comment?.trim() || null,
      ms: input.ms,
      strength: input.strength ?? null,
      criteria: input.criteria ?? null,
    },
    holding: [...input.holding, input.itemId],
  };
}

/** The answer to a key press whose label is stored (now, or by an earlier send: then the first choice is kept). */
function answered(
  result: Extract<StoreLabelResult, { stored: true }>,
  next: PairView | null,
  wanted: number,
): LabelOutcome {
  return {
    ok: true,
    duplicate: result.duplicate,
    next,
    progress: {
      mine: result.mine,
      given: result.given,
      wanted,
      left: result.left,
      quota: result.quota,
      counted: result.counted,
    },
    ...(result.kept ? { kept: result.kept } : {}),
  };
}

/** Stores a label (before anything else happens), then claims the pair after the ones the page holds. */
export async function label(store: Store, desk: Desk, input: KeyPress): Promise<LabelOutcome> {
  const refused = misfit(desk, input);
  if (refused) return refused;
  const { given, holding } = pressed(desk.queue.id, desk.userId, input);
  if (desk.queue.goldRate === 0 && isPlain(desk.schema)) {
    // The common case, one statement: the label, the next pair and its content.
    // The desk was opened (the queue found, the person's right to label it checked) before this.
    const { label: result, next } = await store.labels.storeAndNext(given, LEASE_MS, holding, { anyQueue: true });
    if (!result.stored) return { ok: false, status: 409, error: result.reason };
    const outcome = answered(
      result,
      next &&
        pairView(next.content, { leftIsA: next.leftIsA, hidden: desk.hidden, hidesScores: desk.queue.hidesScores }),
      desk.queue.wanted,
    );
    const feedback = await goldFeedback(store, desk, input.itemId);
    return feedback && outcome.ok ? { ...outcome, feedback } : outcome;
  }
  const result = await store.labels.store(given);
  if (!result.stored) return { ok: false, status: 409, error: result.reason };
  // Read from the stored label: only now may the person learn that the pair was gold.
  const feedback = await goldFeedback(store, desk, input.itemId);
  const outcome = answered(result, await nextPair(store, desk, holding), desk.queue.wanted);
  return feedback && outcome.ok ? { ...outcome, feedback } : outcome;
}

/**
 * A key press from `viewer` at queue `queueId`'s desk, without opening the desk first: the one
 * statement finds the queue and checks that the person may label it before it writes (a signed-in
 * person at a queue without gold pairs, the common case). Anyone else, and a queue that mixes gold
 * pairs in, goes the desk's usual way, with nothing written by the first try.
 */
export async function labelAt(store: Store, viewer: Viewer, queueId: number, input: KeyPress): Promise<LabelOutcome> {
  const byDesk = async (): Promise<LabelOutcome> => {
    const desk = await openDesk(store, viewer, queueId);
    return "error" in desk ? { ok: false, status: desk.status, error: desk.error } : label(store, desk, input);
  };
  if (viewer.kind !== "user" || !Number.isSafeInteger(queueId) || carriesMore(input)) return byDesk();
  const { given, holding } = pressed(queueId, viewer.id, input);
  const {
    label: result,
    next,
    desk,
  } = await store.labels.storeAndNext(given, LEASE_MS, holding, { anyQueue: labelsEveryQueue(viewer) });
  if (!desk.found) return { ok: false, ...missing(queueId) };
  if (!desk.member) return { ok: false, ...outsider() };
  // Gold pairs and label schemas go the checked way; this statement wrote nothing for them.
  if (desk.goldRate > 0 || !desk.plain || !desk.open) return byDesk();
  if (!result.stored) return { ok: false, status: 409, error: result.reason };
  // Only those who may label the queue get here, so its setting alone decides (queueShowsHidden).
  return answered(
    result,
    next && pairView(next.content, { leftIsA: next.leftIsA, hidden: desk.showsHidden, hidesScores: desk.hidesScores }),
    desk.wanted,
  );
}

/** Takes back the person's latest label and answers with that pair, to label again. */
export async function undo(
  store: Store,
  desk: Desk,
): Promise<{ pair: PairView | null; progress: Progress; refused?: string }> {
  const refused = await undoRefused(store, desk);
  if (refused) return { pair: null, progress: await store.labels.progress(desk.queue.id, desk.userId), refused };
  const reopened = await store.labels.undo(desk.queue.id, desk.userId, LEASE_MS);
  const pair = reopened ? await viewOf(store, desk, reopened) : null;
  return { pair, progress: await store.labels.progress(desk.queue.id, desk.userId) };
}

export async function skip(
  store: Store,
  desk: Desk,
  itemId: number,
  holding: number[],
  why: { reason?: string | null; broken?: boolean } = {},
): Promise<{ skipped: boolean; next: PairView | null; progress: Progress }> {
  const reason = why.reason?.trim() || null;
  const skipped = await store.labels.skip(desk.queue.id, itemId, desk.userId, { reason, broken: why.broken ?? false });
  const next = await nextPair(store, desk, [...holding, itemId]);
  // A skipped pair is no longer left for this person: the progress line says so at once.
  return { skipped, next, progress: await store.labels.progress(desk.queue.id, desk.userId) };
}

/**
 * "Come back later": the pair stays this person's but comes after every other they could be given;
 * answers with the next one (the put-off pair itself when nothing else is left).
 */
export async function later(
  store: Store,
  desk: Desk,
  itemId: number,
  holding: number[],
): Promise<{ deferred: boolean; next: PairView | null }> {
  const deferred = await store.labels.defer(desk.queue.id, itemId, desk.userId);
  return {
    deferred,
    next: await nextPair(
      store,
      desk,
      holding.filter((id) => id !== itemId),
    ),
  };
}

/** This person's labels of the queue, latest first: the history the desk reopens labels from. */
export async function history(store: Store, desk: Desk): Promise<MyLabel[]> {
  return store.labels.mine(desk.queue.id, desk.userId, { limit: 500 });
}

/** One of this person's labelled pairs, shown again as they saw it, with their label: to change it. */
export async function reopen(
  store: Store,
  desk: Desk,
  itemId: number,
): Promise<{ pair: PairView; label: MyLabel } | null> {
  const [mine] = await store.labels.mine(desk.queue.id, desk.userId, { itemId });
  if (!mine) return null;
  const pair = await viewOf(store, desk, { itemId, leftIsA: mine.leftIsA });
  return pair ? { pair, label: mine } : null;
}

/**
 * Changes a label this person gave earlier: a new version of it (the one it replaces is kept), so
 * agreement and exports read the latest. The pair's slots are untouched.
 */
export async function revise(
  store: Store,
  desk: Desk,
  input: Omit<KeyPress, "holding">,
): Promise<{ ok: true; version: number } | { ok: false; status: number; error: string }> {
  const problem = answerProblem(desk.schema, input);
  if (problem) return { ok: false, status: 400, error: problem };
  const told = await reviseRefused(store, desk, input.itemId);
  if (told) return { ok: false, status: 409, error: told };
  const { given } = pressed(desk.queue.id, desk.userId, { ...input, holding: [] });
  const revised = await store.labels.revise(given);
  if (!revised)
    return { ok: false, status: 409, error: `you have no label on pair ${input.itemId} in this queue to change` };
  return { ok: true, version: revised.version };
}
