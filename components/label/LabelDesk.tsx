"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { PairView } from "@/lib/label/views";
import type { Progress, Side } from "@/lib/store/labels";
import { PairSides } from "./PairSides";

type Phase = "loading" | "ready" | "saving" | "done" | "error";

const KEYS: Record<string, Side> = { "1": "left", "2": "right", "3": "tie", "4": "both_bad" };

async function post<T>(queueId: number, action: string, body: unknown): Promise<T> {
  const response = await fetch(`/api/queues/${queueId}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok)
    throw Object.assign(new Error(json.error ?? `${response.status} ${response.statusText}`), {
      status: response.status,
    });
  return json;
}

const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);
const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * The labelling desk. It holds the pair on screen and the one after it, so a key press only
 * waits for the label to be stored: the next pair is on screen the moment the server says so.
 * Keys: 1 A, 2 B, 3 tie, 4 both bad, u undo the last label, s skip.
 */
export function LabelDesk({ queueId, initial }: { queueId: number; initial: Progress }) {
  const [current, setCurrent] = useState<PairView | null>(null);
  const [ahead, setAhead] = useState<PairView | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [progress, setProgress] = useState<Progress>(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const [times, setTimes] = useState<number[]>([]);
  const [elapsed, setElapsed] = useState(0);
  const shownAt = useRef(Date.now());
  // The latest state for key handlers and async steps.
  const state = useRef({ current, ahead, phase, comment });
  state.current = { current, ahead, phase, comment };

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
      if (state.current.current?.itemId === pair.itemId && !state.current.ahead) setAhead(got.pair);
    },
    [queueId],
  );

  useEffect(() => {
    (async () => {
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
  }, [queueId, show, fill]);

  // An open tab keeps its pairs; an abandoned one lets them go when the lease lapses.
  useEffect(() => {
    const timer = setInterval(() => void post(queueId, "renew", {}).catch(() => {}), 60_000);
    const tick = setInterval(() => setElapsed(Date.now() - shownAt.current), 250);
    return () => {
      clearInterval(timer);
      clearInterval(tick);
    };
  }, [queueId]);

  const holding = () =>
    [state.current.current?.itemId, state.current.ahead?.itemId].filter((x): x is number => typeof x === "number");

  const submit = useCallback(
    async (side: Side) => {
      const { current: pair, ahead: next, phase: now, comment: note } = state.current;
      if (!pair || now !== "ready") return;
      setPhase("saving");
      setMessage(null);
      const ms = Date.now() - shownAt.current;
      try {
        const stored = await post<{ next: PairView | null; progress: Progress }>(queueId, "labels", {
          itemId: pair.itemId,
          side,
          comment: note || null,
          ms,
          holding: holding(),
        });
        setProgress(stored.progress);
        setTimes((t) => [...t, ms]);
        setComment("");
        // Stored: now the pair held ahead goes on screen, and the one the server just claimed behind it.
        if (next) show(next, stored.next);
        else {
          show(stored.next, null);
          await fill(stored.next, null);
        }
      } catch (error) {
        setMessage(`Not stored: ${(error as Error).message}`);
        if ((error as { status?: number }).status === 409) show(next, null);
        else setPhase("ready");
        if ((error as { status?: number }).status === 409) await fill(next, null);
      }
    },
    [queueId, show, fill],
  );

  const undo = useCallback(async () => {
    if (state.current.phase === "saving" || state.current.phase === "loading") return;
    setPhase("saving");
    try {
      const got = await post<{ pair: PairView | null; progress: Progress }>(queueId, "undo", {});
      setProgress(got.progress);
      if (got.pair) {
        setTimes((t) => t.slice(0, -1));
        setMessage("Your last label was taken back: label this pair again.");
        show(got.pair, state.current.current ?? state.current.ahead);
      } else {
        setMessage("Nothing to undo.");
        setPhase(state.current.current ? "ready" : "done");
      }
    } catch (error) {
      setMessage((error as Error).message);
      setPhase("ready");
    }
  }, [queueId, show]);

  const skip = useCallback(async () => {
    const { current: pair, ahead: next, phase: now } = state.current;
    if (!pair || now !== "ready") return;
    setPhase("saving");
    try {
      const got = await post<{ next: PairView | null }>(queueId, "skip", {
        itemId: pair.itemId,
        holding: next ? [next.itemId] : [],
      });
      if (next) show(next, got.next);
      else {
        show(got.next, null);
        await fill(got.next, null);
      }
    } catch (error) {
      setMessage((error as Error).message);
      setPhase("ready");
    }
  }, [queueId, show, fill]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target?.closest("input, textarea, select, [contenteditable=true]") ||
        event.metaKey ||
        event.ctrlKey ||
        event.altKey
      )
        return;
      if (KEYS[event.key]) {
        event.preventDefault();
        void submit(KEYS[event.key]!);
      } else if (event.key === "u") {
        event.preventDefault();
        void undo();
      } else if (event.key === "s") {
        event.preventDefault();
        void skip();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [submit, undo, skip]);

  const share = progress.wanted ? progress.given / progress.wanted : 0;
  const button = "rounded-md border px-3 py-1.5 text-sm font-medium disabled:opacity-50";
  return (
    <div data-testid="label-desk" data-phase={phase} data-item={current?.itemId ?? ""}>
      <div className="sticky top-0 z-10 mb-4 border-b border-stone-200 bg-stone-50/95 py-3 backdrop-blur">
        <div className="mb-2 flex flex-wrap items-center gap-x-6 gap-y-1 text-sm text-stone-600">
          <span>
            You: <strong data-testid="progress-mine">{progress.mine}</strong> labels
          </span>
          <span>
            Left for you: <strong data-testid="progress-left">{progress.left}</strong>{" "}
            {progress.left === 1 ? "pair" : "pairs"}
          </span>
          <span>
            Queue: <strong data-testid="progress-queue">{progress.given}</strong> of {progress.wanted} labels
          </span>
          <span>
            This pair: <span className="tabular-nums">{seconds(elapsed)}</span> · median per label{" "}
            <span data-testid="median-time">{seconds(median(times))}</span>
          </span>
        </div>
        <div
          className="h-2 w-full overflow-hidden rounded bg-stone-200"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={progress.wanted}
          aria-valuenow={progress.given}
          aria-label="Queue progress"
        >
          <div className="h-full bg-teal-600" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={`${button} border-teal-700 bg-teal-700 text-white`}
            disabled={phase !== "ready"}
            onClick={() => void submit("left")}
            aria-keyshortcuts="1"
          >
            A is better <kbd className="ml-1 opacity-75">1</kbd>
          </button>
          <button
            type="button"
            className={`${button} border-teal-700 bg-teal-700 text-white`}
            disabled={phase !== "ready"}
            onClick={() => void submit("right")}
            aria-keyshortcuts="2"
          >
            B is better <kbd className="ml-1 opacity-75">2</kbd>
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white`}
            disabled={phase !== "ready"}
            onClick={() => void submit("tie")}
            aria-keyshortcuts="3"
          >
            Tie <kbd className="ml-1 opacity-75">3</kbd>
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white`}
            disabled={phase !== "ready"}
            onClick={() => void submit("both_bad")}
            aria-keyshortcuts="4"
          >
            Both bad <kbd className="ml-1 opacity-75">4</kbd>
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white`}
            disabled={phase === "saving" || phase === "loading"}
            onClick={() => void undo()}
            aria-keyshortcuts="u"
          >
            Undo <kbd className="ml-1 opacity-75">u</kbd>
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white`}
            disabled={phase !== "ready"}
            onClick={() => void skip()}
            aria-keyshortcuts="s"
          >
            Skip <kbd className="ml-1 opacity-75">s</kbd>
          </button>
          <input
            type="text"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && (e.target as HTMLInputElement).blur()}
            placeholder="Optional comment (Esc to leave the box)"
            aria-label="Comment"
            maxLength={4000}
            className="min-w-48 flex-1 rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm"
          />
        </div>
        {message ? (
          <p className="mt-2 text-sm text-amber-800" role="status" data-testid="desk-message">
            {message}
          </p>
        ) : null}
      </div>
      {phase === "loading" ? <p className="text-stone-500">Loading the first pair…</p> : null}
      {phase === "error" ? <p className="text-red-700">{message}</p> : null}
      {phase === "done" ? (
        <p
          className="rounded-lg border border-stone-200 bg-white p-6 text-center text-stone-600"
          data-testid="desk-done"
        >
          Nothing left for you in this queue. Thank you!
        </p>
      ) : null}
      {current ? <PairSides pair={current} /> : null}
    </div>
  );
}
