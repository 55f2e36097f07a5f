"use client";

import { useEffect, useState } from "react";
import type { EpisodeStreamState } from "@/components/live/useEpisodeStream";
import { seatLine } from "@/lib/play/seat-line";
import type { Benchmark } from "@/lib/benchmarks";

const TONES = {
  plain: "border-stone-200 bg-white text-stone-700",
  notice: "border-amber-300 bg-amber-50 text-amber-900",
  move: "border-teal-400 bg-teal-50 text-teal-900",
  done: "border-emerald-300 bg-emerald-50 text-emerald-900",
  failed: "border-red-300 bg-red-50 text-red-900",
} as const;

/** One line that says whose move it is, what the other side waits on, or how the episode ended. */
export function SeatStatus({
  live,
  mine,
  other,
  benchmark,
  episodeId,
  scoredBy,
}: {
  live: EpisodeStreamState;
  mine: "agent" | "simulator";
  other: string;
  benchmark: Benchmark;
  episodeId: number;
  /** What made the reward (a similarity's embedder), named on the end line. */
  scoredBy?: string | null;
}) {
  // While a model server is down the line says for how long, so it is drawn again now and then.
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!live.waiting) return;
    const timer = setInterval(() => setTicks((n) => n + 1), 5_000);
    return () => clearInterval(timer);
  }, [live.waiting]);
  const line = seatLine(
    {
      connected: live.connected,
      status: live.status,
      reward: live.reward,
      playing: live.playing,
      awaitingRole: live.awaiting?.role ?? null,
      agentTurn: live.awaiting?.agentTurn,
      waiting: live.waiting,
      failureText: live.failure?.text ?? null,
      scoredBy,
    },
    mine,
    other,
    benchmark,
  );
  const ended = line.state === "ended";
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="seat-status"
      data-state={line.state}
      className={`mb-4 rounded-lg border px-4 py-2 text-sm ${TONES[line.tone]}`}
    >
      {line.text}
      {live.status === "failed" ? <RetryButton episodeId={episodeId} /> : null}
      {ended && live.status === "done" ? (
        <a href={`/episodes/${episodeId}`} className="ml-2 underline">
          Open the replay{mine === "agent" ? " (it shows the hidden solution)" : ""}
        </a>
      ) : null}
    </p>
  );
}

/** Plays a failed episode again from its last stored turn (the studio resumes its run). */
function RetryButton({ episodeId }: { episodeId: number }) {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);
  const retry = async () => {
    setState("sending");
    setError(null);
    const response = await fetch(`/api/episodes/${episodeId}/retry`, { method: "POST" }).catch((e: Error) => e);
    if (response instanceof Error || !response.ok) {
      setError(
        response instanceof Error
          ? response.message
          : (((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`),
      );
      setState("idle");
      return;
    }
    setState("sent");
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void retry()}
        disabled={state !== "idle"}
        className="ml-3 rounded-md border border-red-300 bg-white px-2 py-0.5 text-red-900 hover:bg-red-100 disabled:opacity-50"
      >
        {state === "sent" ? "Retrying…" : "Retry"}
      </button>
      {error ? <span className="ml-2">({error})</span> : null}
    </>
  );
}
