"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";

interface Progress {
  state: "running" | "stopping" | "finished" | "stopped" | "crashed" | "idle";
  done?: number;
  failed?: number;
  running?: number;
  total?: number;
  turns?: number;
  error?: string;
}

/** A run's live progress from the server's event stream, with Stop and Resume; the page refreshes as episodes finish. */
export function RunLive({
  runId,
  status,
  failed = 0,
  ended = 0,
}: {
  runId: number;
  status: string;
  failed?: number;
  ended?: number;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);
  const refreshAt = useRef(0);

  useEffect(() => {
    const source = new EventSource(`/api/runs/${runId}/events`);
    const refresh = () => {
      // At most one page refresh a second, however fast episodes finish.
      const now = Date.now();
      if (now - refreshAt.current > 1000) {
        refreshAt.current = now;
        router.refresh();
      }
    };
    source.addEventListener("progress", (event) => {
      const next = JSON.parse((event as MessageEvent).data) as Progress;
      setProgress(next);
      if (next.state !== "running" && next.state !== "idle") router.refresh();
    });
    source.addEventListener("episode", refresh);
    return () => source.close();
  }, [runId, router]);

  // Just started (its first progress not yet told, or played by workers elsewhere): not "finished", no Resume.
  const starting = (!progress || progress.state === "idle") && status === "running";
  const active = starting || progress?.state === "running" || progress?.state === "stopping";
  const act = async (what: "stop" | "resume") => {
    setBusy(true);
    try {
      await fetch(`/api/runs/${runId}/${what}`, { method: "POST" });
    } finally {
      setBusy(false);
      router.refresh();
    }
  };

  return (
    <div
      className="mb-6 flex items-center gap-4 rounded-lg border border-stone-200 bg-white p-4"
      data-testid="run-live"
      aria-live="polite"
    >
      <div className="flex-1 text-sm text-stone-700">
        {(starting && ended === 0) || (active && progress?.total === 0) ? (
          <span className="font-medium" data-testid="run-starting">
            Starting…
          </span>
        ) : starting ? (
          <span className="font-medium">Running (its figures below refresh as episodes end)</span>
        ) : active ? (
          <>
            <span className="font-medium">{progress?.state === "stopping" ? "Stopping…" : "Running"}</span>:{" "}
            {progress?.done ?? 0}/{progress?.total ?? "?"} done, {progress?.running ?? 0} playing,{" "}
            {progress?.failed ?? 0} failed, {progress?.turns ?? 0} turns this session
            <progress className="ml-3 align-middle" max={progress?.total || 1} value={progress?.done ?? 0} />
          </>
        ) : progress?.state === "crashed" ? (
          <span className="text-red-700">The run stopped with an error: {progress.error}</span>
        ) : (
          <span>Not playing now ({progress?.state === "idle" || !progress ? status : progress.state}).</span>
        )}
      </div>
      {active ? (
        <button
          type="button"
          disabled={busy || progress?.state === "stopping"}
          onClick={() => act("stop")}
          className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 disabled:opacity-50"
        >
          Stop
        </button>
      ) : status !== "done" ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => act("resume")}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {failed > 0 ? `Retry ${failed} failed episode${failed === 1 ? "" : "s"}` : "Resume"}
        </button>
      ) : null}
    </div>
  );
}
