"use client";

import type { ReactNode } from "react";
import { RunActions } from "@/components/RunActions";
import { RunStateBadge } from "./RunStateBadge";
import { RunName } from "./RunName";
import { RunTags } from "./RunTags";
import { RunNotes } from "./RunNotes";
import { useRunSnapshot } from "./snapshot-context";

/**
 * The run's name, benchmark, state word and (for researchers) rename, archive and delete, then its
 * tags and (researchers') notes, from the snapshot.
 */
export function RunHeader({ badge, manages }: { badge: ReactNode; manages: boolean }) {
  const s = useRunSnapshot();
  return (
    <>
      <header className="mb-3 mt-2 flex flex-wrap items-center gap-3">
        <RunName manages={manages} />
        {badge}
        <RunStateBadge state={s.state} testId="run-state" />
        {s.run.kind === "played" ? (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">played session</span>
        ) : null}
        {manages ? (
          <span className="ml-auto">
            <RunActions runId={s.run.id} name={s.run.name} archived={s.actions.archived} episodes={s.counts.total} />
          </span>
        ) : null}
      </header>
      <RunTags manages={manages} />
      <RunNotes manages={manages} />
    </>
  );
}

/** What stands between the header and the figures: archived, or episodes waiting for a model server. */
export function RunBanners() {
  const s = useRunSnapshot();
  return (
    <>
      {s.run.archivedAt ? (
        <p
          className="mb-4 rounded-lg border border-stone-300 bg-stone-100 px-4 py-2 text-sm text-stone-700"
          data-testid="archived-banner"
        >
          Archived on {new Date(s.run.archivedAt).toISOString().slice(0, 10)}: this run is hidden from the runs list,
          the Leaderboard and Compare until it is restored.
        </p>
      ) : null}
      {s.waiting ? (
        <p
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900"
          data-testid="waiting-banner"
        >
          {s.waiting.episodes} episode{s.waiting.episodes === 1 ? "" : "s"} {s.waiting.text}. They go on by themselves
          when it answers again; only after {s.waiting.giveUpMinutes} min of outage do they fail.
        </p>
      ) : null}
    </>
  );
}
