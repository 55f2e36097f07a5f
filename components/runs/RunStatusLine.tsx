"use client";

import { useState } from "react";
import type { RunSnapshot } from "@/lib/runs/snapshot";
import { useRunSnapshot } from "./snapshot-context";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The line under the header: the state word's sentence, from the snapshot's counts. */
function sentence(s: RunSnapshot): string {
  const c = s.counts;
  const ended = c.done + c.failed;
  switch (s.state) {
    case "new":
      return c.total ? `${plural(c.total, "episode")} to play; none has started.` : "No episodes yet.";
    case "running":
      if (c.total === 0) return "Starting…";
      return `${ended}/${c.total} ended (${c.done} done, ${c.failed} failed), ${c.playing} playing, ${c.toPlay} to play.`;
    case "stopping":
      return `the turns in flight end first; ${c.playing} playing, ${ended}/${c.total} ended.`;
    case "stopped":
      return `${c.toPlay + c.failed} of ${plural(c.total, "episode")} left (${c.toPlay} to play, ${c.failed} failed); none is being played.`;
    case "crashed":
      return `${s.error ? `${s.error}. ` : ""}${c.toPlay + c.failed} of ${plural(c.total, "episode")} left.`;
    case "finished":
      return `all ${plural(c.total, "episode")} ended: ${c.done} done, ${c.failed} failed.`;
  }
}

/** The run's state in a sentence, with Stop while it plays and Resume only where resuming plays something. */
export function RunStatusLine() {
  const s = useRunSnapshot();
  const [busy, setBusy] = useState(false);
  const act = async (what: "stop" | "resume") => {
    setBusy(true);
    try {
      await fetch(`/api/runs/${s.run.id}/${what}`, { method: "POST" });
    } finally {
      // The stream brings the run's next snapshot; the button waits for nothing else.
      setBusy(false);
    }
  };
  const live = s.state === "running" || s.state === "stopping";
  return (
    <div
      className="mb-6 flex flex-wrap items-center gap-4 rounded-lg border border-stone-200 bg-white p-4"
      data-testid="run-live"
      data-state={s.state}
      aria-live="polite"
    >
      <p
        className={`min-w-0 flex-1 text-sm ${s.state === "crashed" ? "text-red-700" : "text-stone-700"}`}
        data-testid="run-state-line"
      >
        <span className="font-medium">{s.state[0]!.toUpperCase() + s.state.slice(1)}</span>: {sentence(s)}
        {live && s.counts.total ? (
          <progress className="ml-3 align-middle" max={s.counts.total} value={s.counts.done + s.counts.failed} />
        ) : null}
        {s.state === "running" && !s.actions.stop ? (
          <span className="ml-2 text-stone-500">(played by another process: stop it there)</span>
        ) : null}
      </p>
      {s.actions.stop ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => void act("stop")}
          className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 disabled:opacity-50"
        >
          Stop
        </button>
      ) : null}
      {s.actions.resume ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => void act("resume")}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm text-white hover:bg-teal-800 disabled:opacity-50"
          data-testid="run-resume"
        >
          {s.actions.resume.label}
        </button>
      ) : null}
    </div>
  );
}
