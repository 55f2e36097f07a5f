import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { openPlaySessions } from "@/lib/play/sessions";
import { PageHeader } from "@/components/PageHeader";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { NewPlayForm } from "@/components/play/NewPlayForm";
import { servedModels } from "@/lib/gpu/node/served-weights";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Play" };

export default async function PlayPage() {
  const sessions = await openPlaySessions(await getStore());
  return (
    <>
      <PageHeader title="Play">
        Take a seat in a ColBench episode: be the collaborator who knows the hidden solution, or the agent who has to
        find out what is wanted. Played episodes are scored and stored like any other, and marked as human-simulated
        when a person plays the collaborator.
      </PageHeader>
      <NewPlayForm servedPolicy={servedModels().policy} />
      <section className="mt-8" aria-labelledby="open-heading">
        <h2 id="open-heading" className="mb-2 text-lg font-semibold text-stone-900">
          Episodes being played
        </h2>
        {sessions.length === 0 ? (
          <p className="text-sm text-stone-500">
            None right now. Start one above; to play with someone, send them the other seat&apos;s link.
          </p>
        ) : (
          <ul
            className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white"
            data-testid="play-sessions"
          >
            {sessions.map((s) => (
              <li key={s.episodeId} className="flex flex-wrap items-center gap-3 px-4 py-2 text-sm">
                <BenchmarkBadge benchmark={s.benchmark} />
                <span>
                  episode #{s.episodeId} · task #{s.taskId} · {s.turns} turns · {s.status}
                </span>
                <span className="ml-auto flex gap-3">
                  {s.humanSimulator ? (
                    <Link className="text-teal-700 hover:underline" href={`/play/${s.episodeId}/collaborator`}>
                      collaborator seat
                    </Link>
                  ) : null}
                  {s.humanAgent ? (
                    <Link className="text-teal-700 hover:underline" href={`/play/${s.episodeId}/agent`}>
                      agent seat
                    </Link>
                  ) : null}
                  <Link className="text-stone-500 hover:underline" href={`/episodes/${s.episodeId}`}>
                    watch
                  </Link>
                  <Link
                    className="text-stone-500 hover:underline"
                    href={`/runs/${s.runId}`}
                    title="Stop or resume it from its run page"
                  >
                    run
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
