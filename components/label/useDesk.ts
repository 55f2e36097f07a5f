"use client";

// The desk's state: the pair on screen and the one held ahead (so a key press waits only for its
// label to be stored), the phase, progress, a message, and the time on this pair. The actions
// are desk-actions.ts's, bound to this state.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { post, type DeskAnswer, type GoldFeedback, type PairView, type Progress } from "./desk-api";
import { passOn, submitAnswer, undoLast, type DeskContext, type PassKind, type Phase } from "./desk-actions";

export function useDesk(queueId: number, initial: Progress) {
  const [current, setCurrent] = useState<PairView | null>(null);
  const [ahead, setAhead] = useState<PairView | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [progress, setProgressState] = useState<Progress>(initial);
  const [message, setMessage] = useState<string | null>(null);
  // The person's label times as the server last sent them (progress.recentMs), and those stored since.
  const [recent, setRecent] = useState<number[]>([]);
  const [times, setTimes] = useState<number[]>([]);
  // A progress from the desk's opening, an undo or a skip carries the stored times: they replace both.
  const setProgress = useCallback((next: Progress) => {
    setProgressState(next);
    if (next.recentMs) {
      setRecent(next.recentMs);
      setTimes([]);
    }
  }, []);
  const [elapsed, setElapsed] = useState(0);
  // A training queue's word on a gold pair, and what puts the next pair up once the person has read it.
  const [taught, setTaught] = useState<{ feedback: GoldFeedback; then: () => Promise<void> } | null>(null);
  const shownAt = useRef(0);
  // The latest state for async steps that outlive the render that started them.
  const latest = useRef({ current, ahead, phase });
  useLayoutEffect(() => {
    latest.current = { current, ahead, phase };
  });

  const show = useCallback((pair: PairView | null, next: PairView | null) => {
    setCurrent(pair);
    setAhead(next);
    shownAt.current = Date.now();
    setElapsed(0);
    setPhase(pair ? "ready" : "done");
  }, []);

  /** Fetches the pair after the one on screen, unless one is held already. */
  const fill = useCallback(
    async (pair: PairView | null, next: PairView | null) => {
      if (!pair || next) return;
      const got = await post<{ pair: PairView | null }>(queueId, "next", { holding: [pair.itemId] });
      if (latest.current.current?.itemId === pair.itemId && !latest.current.ahead) setAhead(got.pair);
    },
    [queueId],
  );

  useEffect(() => {
    void (async () => {
      try {
        const first = await post<{ pair: PairView | null; progress: Progress }>(queueId, "next", { holding: [] });
        setProgress(first.progress);
        show(first.pair, null);
        await fill(first.pair, null);
      } catch (error) {
        setMessage((error as Error).message);
        setPhase("error");
      }
    })();
  }, [queueId, show, fill, setProgress]);

  // An open tab keeps its pairs; an abandoned one lets them go when the lease lapses.
  useEffect(() => {
    const timer = setInterval(() => void post(queueId, "renew", {}).catch(() => {}), 60_000);
    const tick = setInterval(() => setElapsed(Date.now() - shownAt.current), 250);
    return () => {
      clearInterval(timer);
      clearInterval(tick);
    };
  }, [queueId]);

  const ctx: DeskContext = useMemo(
    () => ({
      queueId,
      now: () => latest.current,
      show,
      fill,
      setPhase,
      setMessage,
      setProgress,
      timed: (ms) => setTimes((t) => (ms === null ? t.slice(0, -1) : [...t, ms])),
      shownAt: () => shownAt.current,
      teach: (feedback, then) => setTaught({ feedback, then }),
    }),
    [queueId, show, fill, setProgress],
  );

  return {
    current,
    phase,
    progress,
    setProgress,
    message,
    setMessage,
    /** The label times the pace is the median of: the server's recent ones and this visit's since. */
    times: useMemo(() => [...recent, ...times], [recent, times]),
    elapsed,
    submit: useCallback((answer: DeskAnswer, comment: string) => submitAnswer(ctx, answer, comment), [ctx]),
    undo: useCallback(() => undoLast(ctx), [ctx]),
    pass: useCallback((kind: PassKind, reason: string) => passOn(ctx, kind, reason), [ctx]),
    feedback: taught?.feedback ?? null,
    /** Leaves the training word for the next pair. */
    goOn: useCallback(() => {
      setTaught(null);
      void taught?.then();
    }, [taught]),
  };
}
