"use client";

import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";
import type { SeatTurn } from "@/lib/play/seat-turns";
import { benchmarkViews } from "@/components/benchmarks";
import { Transcript, type SpeakerNames } from "@/components/Transcript";
import { LiveAdvantageBadge, LiveAdvantageLine } from "@/components/replay/LiveAdvantages";
import { useLiveAdvantages, type LiveAdvantageSettings } from "@/components/replay/useLiveAdvantages";
import { useEpisodeStream } from "./useEpisodeStream";

/** An episode as it plays: turns appear as they are stored; the page becomes the replay when it ends. */
export function LiveEpisode({
  episodeId,
  taskId,
  benchmark,
  initial,
  names,
  advantages,
}: {
  episodeId: number;
  taskId: number;
  benchmark: Benchmark;
  initial: { turns: SeatTurn[]; status: string; reward: number | null };
  names?: SpeakerNames;
  /** Each agent turn's advantage as it is stored (researchers: computed in this tab). */
  advantages?: LiveAdvantageSettings;
}) {
  const router = useRouter();
  const live = useEpisodeStream(episodeId, "viewer", initial);
  const ended = live.status === "done" || live.status === "failed";
  const scored = useLiveAdvantages(episodeId, live.turns, advantages ?? null);
  const refreshed = useRef(false);
  useEffect(() => {
    if (ended && !refreshed.current) {
      refreshed.current = true;
      router.refresh();
    }
  }, [ended, router]);

  const protocol = benchmarks[benchmark];
  const { LiveAnswer } = benchmarkViews[benchmark];
  const latest = [...live.turns].reverse().find((t) => protocol.proposalOf(t) !== null);
  const code = latest ? protocol.proposalOf(latest) : null;
  return (
    <section aria-label="Live episode" data-testid="live-episode" data-status={live.status}>
      <p className="mb-4 flex items-center gap-2 text-sm text-stone-600" aria-live="polite">
        <span
          className={`inline-block h-2 w-2 rounded-full ${live.connected && !ended ? "animate-pulse bg-red-600" : "bg-stone-400"}`}
        />
        {ended
          ? `Ended (${live.status}).`
          : live.connected
            ? `Live: ${live.turns.length} turns so far${live.awaiting ? `, waiting for the ${live.awaiting.role === "agent" ? (names?.agent ?? "agent") : (names?.simulator ?? "simulator")}` : ""}.`
            : "Connecting…"}
        {!live.playing && live.connected && !ended ? (
          <span className="text-amber-700">The run is not playing now: resume it from its run page.</span>
        ) : null}
      </p>
      <LiveAdvantageLine state={scored} title="Live advantages" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Transcript
          turns={live.turns}
          names={names}
          taskOpens={!benchmarks[benchmark].episode.simulatorOpens}
          turnExtra={(turn) => <LiveAdvantageBadge turn={turn} state={scored} />}
        />
        <aside className="space-y-4 lg:sticky lg:top-4 lg:self-start">
          <LiveAnswer taskId={taskId} latest={latest} code={code} />
        </aside>
      </div>
    </section>
  );
}
