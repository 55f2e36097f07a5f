"use client";

import Link from "next/link";
import type { TurnHit } from "@/lib/store/search";
import { BenchmarkBadge } from "./BenchmarkBadge";
import { reward } from "./format";

// A client component for the same reason as the run page's episodes (RunEpisodes): up to 100 hits
// given as data weigh a third of what their elements weigh in the page's RSC payload, and the HTML
// is the same.

/** The matched words between «» become marks; everything else stays text. */
function Snippet({ text }: { text: string }) {
  return (
    <>
      {text.split(/(«[^»]*»)/).map((part, i) =>
        part.startsWith("«") ? (
          <mark key={i} className="rounded bg-amber-200 px-0.5">
            {part.slice(1, -1)}
          </mark>
        ) : (
          <span key={i}>{part}</span>
        ),
      )}
    </>
  );
}

/** Search hits, each opening the replay at its turn. */
export function SearchHits({ hits }: { hits: TurnHit[] }) {
  return (
    <ol className="space-y-2" data-testid="search-results">
      {hits.map((hit) => (
        <li key={`${hit.episodeId}:${hit.index}`} className="rounded-lg border border-stone-200 bg-white p-3">
          <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-stone-500">
            <BenchmarkBadge benchmark={hit.benchmark} />
            <Link
              href={`/episodes/${hit.episodeId}#turn-${hit.index}`}
              className="font-medium text-teal-800 hover:underline"
            >
              episode #{hit.episodeId}, turn {hit.index} ({hit.role === "agent" ? "agent" : "simulator"})
            </Link>
            <span>{hit.runName ?? "imported"}</span>
            <span>task #{hit.taskId}</span>
            <span>reward {reward(hit.reward)}</span>
          </div>
          <p className="text-sm text-stone-800">
            <Snippet text={hit.snippet} />
          </p>
        </li>
      ))}
    </ol>
  );
}
