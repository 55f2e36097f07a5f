import Link from "next/link";
import { describeWait } from "@/lib/colbench/failure";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { currentViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { KeyNav } from "@/components/KeyNav";
import { EpisodeScore } from "@/components/EpisodeScore";
import { LiveEpisode } from "@/components/live/LiveEpisode";
import { AdvantageChart } from "@/components/replay/AdvantageChart";
import { BrowserScoring } from "@/components/replay/BrowserScoring";
import type { LiveAdvantage } from "@/lib/store/episode-scores";
import { servedFolder, servedModels } from "@/lib/gpu/node/served-weights";
import { liveScorers } from "@/lib/gpu/live-service";
import { TurnTimeline } from "@/components/replay/TurnTimeline";
import { benchmarkViews } from "@/components/benchmarks";
import { turnFor } from "@/lib/play/seat-turns";
import { reward } from "@/components/format";
import { SeatLinks } from "@/components/play/SeatLinks";
import { episodeSeatLinks } from "@/lib/play/seat-links";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Episode #${(await params).id}` };
}

export default async function EpisodePage({ params }: Params) {
  // A replay quotes the simulator's prompt (hidden information): the page checks, not only the gate.
  if (!seesHidden(await currentViewer())) notFound();
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const episode = Number.isSafeInteger(id) ? await store.episodes.get(id) : null;
  if (!episode) notFound();
  const candidates = await store.sweet.ofEpisode(episode.id);
  const previous = episode.previousId ? `/episodes/${episode.previousId}` : null;
  const next = episode.nextId ? `/episodes/${episode.nextId}` : null;
  const ended = episode.status === "done" || episode.status === "failed";
  const turns = episode.turns.map((t) => turnFor("viewer", t));
  const advantages = episode.turns.flatMap((t) =>
    t.role === "agent" && typeof t.advantage === "number" ? [{ index: t.index, advantage: t.advantage }] : [],
  );
  // What rank stored is drawn where there is any; else a browser's own record, said as such.
  const scoring = ended ? await store.sweet.episodeScoring(episode.id) : null;
  // Every turn's latest kept value: a replay's whole-episode record and the live turn-by-turn ones.
  const live = await store.sweet.liveAdvantages(episode.id);
  // Served weights are scored in this tab; model servers (no weights served) by the studio's process.
  const scorers = ended ? null : await liveScorers(store, episode.id);
  const chart = advantageChart(advantages, ended ? live : []);
  const names = {
    agent: episode.humanAgent ? "agent (person)" : "agent",
    simulator: episode.humanSimulated ? "human collaborator" : "simulated human",
  };
  // Only an episode people play has seats to hand out.
  const seatLinks = episode.humanAgent || episode.humanSimulated ? await episodeSeatLinks(store, episode.id) : null;
  return (
    <article>
      <KeyNav previous={previous} next={next} />
      <EpisodeNav runId={episode.runId} runName={episode.runName} previous={previous} next={next} />
      <header className="mb-6 mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">Episode #{episode.id}</h1>
        <Link href={`/tasks/${episode.taskId}`} className="text-sm text-teal-700 hover:underline">
          task #{episode.taskId}
        </Link>
        <span className="text-sm text-stone-500">
          sample {episode.sample} · {episode.status} · reward{" "}
          <strong data-testid="episode-reward">{reward(episode.reward)}</strong>
          {episode.scoredBy ? (
            // A similarity means nothing without its embedder (and the weight-free one is not the paper's).
            <span data-testid="episode-scored-by"> by {episode.scoredBy}</span>
          ) : null}
        </span>
      </header>
      {episode.waitingFor ? (
        <p
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900"
          data-testid="episode-waiting"
        >
          This episode is {describeWait(episode.waitingFor)}; it goes on by itself when the server answers again.
        </p>
      ) : null}
      {seatLinks ? (
        <SeatLinks
          episodeId={episode.id}
          people={seatLinks.people}
          links={seatLinks.links.map((l) => ({
            ...l,
            createdAt: l.createdAt.toISOString(),
            expiresAt: l.expiresAt.toISOString(),
            openedAt: l.openedAt?.toISOString() ?? null,
            revokedAt: l.revokedAt?.toISOString() ?? null,
          }))}
        />
      ) : null}
      {ended ? (
        <>
          <ReplayKeys />
          {scoring ? <BrowserScoring episodeId={episode.id} served={servedModels()} scoring={scoring} /> : null}
          {chart ? <AdvantageChart points={chart.points} source={chart.source} label={chart.label} /> : null}
          <TurnTimeline
            turns={turns}
            benchmark={episode.benchmark}
            names={names}
            candidates={candidates}
            similarity={
              benchmarkViews[episode.benchmark].similarityInBrowser
                ? { clip: servedClip(), targetRenderId: targetRenderOf(episode.details) }
                : undefined
            }
          />
          <EpisodeScore benchmark={episode.benchmark} answer={episode.answer} details={episode.details} />
        </>
      ) : (
        <LiveEpisode
          episodeId={episode.id}
          taskId={episode.taskId}
          benchmark={episode.benchmark}
          initial={{ turns, status: episode.status, reward: episode.reward }}
          names={names}
          advantages={
            scorers?.by === "servers"
              ? { where: "studio", served: scorers.served, initial: live }
              : { where: "tab", served: servedModels(), initial: live }
          }
        />
      )}
    </article>
  );
}

/** The CLIP folder's name the studio serves to browsers, or null. */
function servedClip(): string | null {
  return servedFolder("clip")?.split(/[\\/]/).pop() ?? null;
}

/** The target's render id a score of a page recorded (content-addressed), or null. */
function targetRenderOf(details: unknown): string | null {
  const id = (details as { targetRender?: unknown } | null)?.targetRender;
  return typeof id === "string" && /^[0-9a-f]{64}$/.test(id) ? id : null;
}

/** The chart's points: what rank stored where there is any; else the values kept from a browser or the studio, said as such. */
function advantageChart(advantages: Array<{ index: number; advantage: number }>, live: LiveAdvantage[]) {
  const livePoints = live.flatMap((v) =>
    typeof v.advantage === "number" ? [{ index: v.turn, advantage: v.advantage }] : [],
  );
  const devices = [
    ...new Set(
      live.map((v) =>
        v.device.startsWith("studio: ") ? `in the studio on ${v.device.slice(8)}` : `in a browser on ${v.device}`,
      ),
    ),
  ].join("; ");
  return advantages.length
    ? { points: advantages, source: "rank" as const, label: "stored with the run: colbench rank, or imported" }
    : livePoints.length
      ? {
          points: livePoints,
          source: "browser" as const,
          label: `computed ${devices}; not part of the run's ranking`,
        }
      : null;
}

/** Back to the run, and the run's previous and next episodes. */
function EpisodeNav({
  runId,
  runName,
  previous,
  next,
}: {
  runId: number | null;
  runName: string | null;
  previous: string | null;
  next: string | null;
}) {
  return (
    <div className="flex items-center justify-between text-sm">
      {runId ? (
        <Link href={`/runs/${runId}`} className="text-teal-700 hover:underline">
          ← {runName}
        </Link>
      ) : (
        <span />
      )}
      <span className="flex gap-2">
        {previous ? (
          <Link
            href={previous}
            className="rounded-md border border-stone-300 bg-white px-3 py-1"
            aria-keyshortcuts="ArrowLeft"
          >
            ← previous
          </Link>
        ) : null}
        {next ? (
          <Link
            href={next}
            className="rounded-md border border-stone-300 bg-white px-3 py-1"
            aria-keyshortcuts="ArrowRight"
          >
            next →
          </Link>
        ) : null}
      </span>
    </div>
  );
}

/** The replay's keyboard shortcuts. */
function ReplayKeys() {
  return (
    <p className="mb-3 text-xs text-stone-500" data-testid="replay-keys">
      Keys: <kbd className="rounded border border-stone-300 bg-white px-1">[</kbd>{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">]</kbd> or{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">↑</kbd>{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">↓</kbd> step through the agent&apos;s turns ·{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">←</kbd>{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">→</kbd> previous and next episode of the run ·{" "}
      <kbd className="rounded border border-stone-300 bg-white px-1">?</kbd> all shortcuts
    </p>
  );
}
