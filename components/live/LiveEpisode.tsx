"use client";

import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { codeOfTurn } from "@/lib/colbench/turn-code";
import type { SeatTurn } from "@/lib/play/views";
import { CodeEditor } from "@/components/code";
import { Transcript, type SpeakerNames } from "@/components/Transcript";
import { useEpisodeStream } from "./useEpisodeStream";

/** An episode as it plays: turns appear as they are stored; the page becomes the replay when it ends. */
export function LiveEpisode({
  episodeId,
  taskId,
  benchmark,
  initial,
  names,
}: {
  episodeId: number;
  taskId: number;
  benchmark: "backend" | "frontend";
  initial: { turns: SeatTurn[]; status: string; reward: number | null };
  names?: SpeakerNames;
}) {
  const router = useRouter();
  const live = useEpisodeStream(episodeId, "viewer", initial);
  const ended = live.status === "done" || live.status === "failed";
  const refreshed = useRef(false);
  useEffect(() => {
    if (ended && !refreshed.current) {
      refreshed.current = true;
      router.refresh();
    }
  }, [ended, router]);

  const latest = [...live.turns].reverse().find((t) => codeOfTurn(t, benchmark) !== null);
  const code = latest ? codeOfTurn(latest, benchmark) : null;
  return (
    <section aria-label="Live episode" data-testid="live-episode" data-status={live.status}>
      <p className="mb-4 flex items-center gap-2 text-sm text-stone-600" aria-live="polite">
        <span className={`inline-block h-2 w-2 rounded-full ${live.connected && !ended ? "animate-pulse bg-red-600" : "bg-stone-400"}`} />
        {ended
          ? `Ended (${live.status}).`
          : live.connected
            ? `Live: ${live.turns.length} turns so far${live.awaiting ? `, waiting for the ${live.awaiting.role === "agent" ? names?.agent ?? "agent" : names?.simulator ?? "simulator"}` : ""}.`
            : "Connecting…"}
        {!live.playing && live.connected && !ended ? <span className="text-amber-700">The run is not playing now: resume it from its run page.</span> : null}
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <Transcript turns={live.turns} names={names} />
        <aside className="space-y-4 lg:sticky lg:top-4 lg:self-start">
          {benchmark === "backend" ? (
            <div>
              <h2 className="mb-1 text-sm font-medium text-stone-600">{latest ? `The agent's code at turn ${latest.index}` : "No code from the agent yet"}</h2>
              <CodeEditor value={code ?? ""} language="python" readOnly height={360} label="The agent's latest code (read-only)" />
            </div>
          ) : (
            <div className="grid grid-cols-2 gap-2">
              <figure className="rounded border border-stone-200 bg-white p-1">
                <figcaption className="mb-1 text-xs text-stone-500">{latest ? `Agent's page, turn ${latest.index}` : "No page yet"}</figcaption>
                {latest?.renderId ? (
                  // eslint-disable-next-line @next/next/no-img-element
                  <img src={`/api/renders/${latest.renderId}`} alt="The agent's latest page" className="w-full" data-testid="live-render" />
                ) : null}
              </figure>
              <figure className="rounded border border-stone-200 bg-white p-1">
                <figcaption className="mb-1 text-xs text-stone-500">Target page</figcaption>
                <iframe title="Target page" src={`/api/tasks/${taskId}/preview`} sandbox="" className="h-80 w-full" />
              </figure>
            </div>
          )}
        </aside>
      </div>
    </section>
  );
}
