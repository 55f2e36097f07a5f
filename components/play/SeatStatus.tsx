"use client";

import { useState } from "react";
import type { EpisodeStreamState } from "@/components/live/useEpisodeStream";

/** One line that says whose move it is, or how the episode ended. */
export function SeatStatus({
  live,
  mine,
  other,
  benchmark,
  episodeId,
}: {
  live: EpisodeStreamState;
  mine: "agent" | "simulator";
  other: string;
  benchmark: "backend" | "frontend";
  episodeId: number;
}) {
  const ended = live.status === "done" || live.status === "failed";
  let text: string;
  let tone = "border-stone-200 bg-white text-stone-700";
  if (ended) {
    const score = live.reward === null ? "no score" : benchmark === "backend" ? `${Math.round(live.reward * 100)}% of the hidden tests passed` : `similarity ${live.reward.toFixed(3)}`;
    text = live.status === "done" ? `The episode is over: ${score}.` : `The episode failed: ${live.failure?.text ?? "no reason was given"}.`;
    tone = live.status === "done" ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-red-300 bg-red-50 text-red-900";
  } else if (!live.connected) {
    text = "Connecting…";
  } else if (!live.playing) {
    text = "This episode is not playing now (the studio restarted or the run was stopped): resume its run to go on.";
    tone = "border-amber-300 bg-amber-50 text-amber-900";
  } else if (live.awaiting?.role === mine) {
    text = mine === "agent" ? `Your move (agent turn ${(live.awaiting.agentTurn ?? 0) + 1} of 10).` : "Your move: reply to the agent.";
    tone = "border-teal-400 bg-teal-50 text-teal-900";
  } else {
    text = `Waiting for the ${other}…`;
  }
  return (
    <p role="status" aria-live="polite" data-testid="seat-status" data-state={ended ? "ended" : live.awaiting?.role === mine ? "your-move" : "waiting"} className={`mb-4 rounded-lg border px-4 py-2 text-sm ${tone}`}>
      {text}
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
      setError(response instanceof Error ? response.message : (((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`));
      setState("idle");
      return;
    }
    setState("sent");
  };
  return (
    <>
      <button type="button" onClick={retry} disabled={state !== "idle"} className="ml-3 rounded-md border border-red-300 bg-white px-2 py-0.5 text-red-900 hover:bg-red-100 disabled:opacity-50">
        {state === "sent" ? "Retrying…" : "Retry"}
      </button>
      {error ? <span className="ml-2">({error})</span> : null}
    </>
  );
}
