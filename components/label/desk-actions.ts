// What the desk's keys and buttons do, as plain functions over the desk's state (useDesk binds
// them): each waits only for its own request, then puts the pair held ahead on screen.
import { post, statusOf, type DeskAnswer, type GoldFeedback, type PairView, type Progress } from "./desk-api";

/** "feedback": a training queue's word on a gold pair is on screen until the person goes on. */
export type Phase = "loading" | "ready" | "saving" | "feedback" | "done" | "error";

export interface DeskContext {
  queueId: number;
  /** The latest state, for async steps that outlive a render. */
  now: () => { current: PairView | null; ahead: PairView | null; phase: Phase };
  show: (pair: PairView | null, next: PairView | null) => void;
  fill: (pair: PairView | null, next: PairView | null) => Promise<void>;
  setPhase: (phase: Phase) => void;
  setMessage: (message: string | null) => void;
  setProgress: (progress: Progress) => void;
  /** How long this label took (the median per label). */
  timed: (ms: number | null) => void;
  shownAt: () => number;
  /** Holds a training queue's word on screen; `then` puts the next pair up when the person goes on. */
  teach: (feedback: GoldFeedback, then: () => Promise<void>) => void;
}

const holding = (ctx: DeskContext) =>
  [ctx.now().current?.itemId, ctx.now().ahead?.itemId].filter((x): x is number => typeof x === "number");

/** After the pair on screen is done with: the one held ahead, and behind it the one the server just gave. */
async function advance(ctx: DeskContext, ahead: PairView | null, given: PairView | null) {
  if (ahead) ctx.show(ahead, given);
  else {
    ctx.show(given, null);
    await ctx.fill(given, null);
  }
}

/** Stores a label for the pair on screen; true once stored. */
export async function submitAnswer(ctx: DeskContext, answer: DeskAnswer, comment: string): Promise<number | null> {
  const { current: pair, ahead, phase } = ctx.now();
  if (!pair || phase !== "ready") return null;
  ctx.setPhase("saving");
  ctx.setMessage(null);
  const ms = Date.now() - ctx.shownAt();
  try {
    const stored = await post<{
      next: PairView | null;
      progress: Progress;
      message?: string;
      feedback?: GoldFeedback;
    }>(ctx.queueId, "labels", {
      itemId: pair.itemId,
      ...answer,
      comment: comment || null,
      ms,
      holding: holding(ctx),
    });
    ctx.setProgress(stored.progress);
    ctx.timed(ms);
    if (stored.message) ctx.setMessage(stored.message);
    if (stored.feedback) {
      // Training: the stored label's word stays up, over the pair it is about, until the person goes on.
      ctx.setPhase("feedback");
      ctx.teach(stored.feedback, () => advance(ctx, ahead, stored.next));
      return pair.itemId;
    }
    await advance(ctx, ahead, stored.next);
    return pair.itemId;
  } catch (error) {
    ctx.setMessage(`Not stored: ${(error as Error).message}`);
    if (statusOf(error) === 409) await advance(ctx, ahead, null);
    else ctx.setPhase("ready");
    return null;
  }
}

/** Takes back the latest label: its pair comes back on screen. */
export async function undoLast(ctx: DeskContext) {
  const { phase, current, ahead } = ctx.now();
  if (phase === "saving" || phase === "loading" || phase === "feedback") return;
  ctx.setPhase("saving");
  try {
    const got = await post<{ pair: PairView | null; progress: Progress }>(ctx.queueId, "undo", {});
    ctx.setProgress(got.progress);
    if (got.pair) {
      ctx.timed(null);
      ctx.setMessage("Your last label was taken back: label this pair again.");
      ctx.show(got.pair, current ?? ahead);
    } else {
      ctx.setMessage("Nothing to undo.");
      ctx.setPhase(current ? "ready" : "done");
    }
  } catch (error) {
    ctx.setMessage((error as Error).message);
    ctx.setPhase("ready");
  }
}

export type PassKind = "skip" | "broken" | "later";

const PASSED: Record<PassKind, string> = {
  skip: "Skipped.",
  broken: "Flagged as broken and skipped: the queue's lead sees it.",
  later: "Put off: it comes back after the other pairs.",
};

/** Passes on the pair on screen: for good (with a reason, or flagged as broken), or until the rest are done. */
export async function passOn(ctx: DeskContext, kind: PassKind, reason: string): Promise<number | null> {
  const { current: pair, ahead, phase } = ctx.now();
  if (!pair || phase !== "ready") return null;
  ctx.setPhase("saving");
  try {
    const got = await post<{ next: PairView | null; progress?: Progress }>(ctx.queueId, "skip", {
      itemId: pair.itemId,
      holding: ahead ? [ahead.itemId] : [],
      reason: reason || null,
      broken: kind === "broken",
      later: kind === "later",
    });
    ctx.setMessage(PASSED[kind]);
    // A skip answers with progress (the pair is no longer left for this person); "later" does not.
    if (got.progress) ctx.setProgress(got.progress);
    // Put off with nothing else left: the same pair again is what there is.
    await advance(ctx, ahead, got.next);
    return pair.itemId;
  } catch (error) {
    ctx.setMessage((error as Error).message);
    ctx.setPhase("ready");
    return null;
  }
}
