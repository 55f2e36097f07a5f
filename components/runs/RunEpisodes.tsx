"use client";

import Link from "next/link";
import type { ScoreBand } from "@/lib/store/runs";
import type { EpisodesQuery } from "@/lib/runs/snapshot";
import { EpisodesTable } from "@/components/EpisodesTable";
import { FilterPills } from "@/components/FilterPills";
import { Pager } from "@/components/Pager";
import { EmptyState } from "@/components/EmptyState";
import { useRunSnapshot } from "./snapshot-context";

const STATUSES = ["done", "failed", "running", "pending"] as const;
// lib/store/runs.ts's SCORE_BANDS (a client component does not load the store's module).
const SCORE_BANDS: readonly ScoreBand[] = ["full", "partial", "zero"];

/** The run's page of episodes under the address's filters, from the snapshot, with the filters and pager. */
export function RunEpisodes() {
  const s = useRunSnapshot();
  const { items, total, page, pages, query } = s.episodes;
  const href = (patch: EpisodesQuery) => {
    const merged = { ...query, page, ...patch };
    const params = new URLSearchParams();
    if (merged.status) params.set("status", merged.status);
    if (merged.score) params.set("score", merged.score);
    if (merged.page && merged.page > 1) params.set("page", String(merged.page));
    const text = params.toString();
    return `/runs/${s.run.id}${text ? `?${text}` : ""}`;
  };
  const filtered = Boolean(query.status || query.score);
  return (
    <>
      <div className="mb-3 flex flex-wrap gap-6 text-sm">
        <FilterPills
          label="Filter by status"
          pills={[undefined, ...STATUSES].map((v) => ({
            label: v ?? "all",
            href: href({ status: v, page: 1 }),
            current: v === query.status,
          }))}
        />
        <FilterPills
          label="Filter by score"
          caption="score"
          pills={[undefined, ...SCORE_BANDS].map((v) => ({
            label: v === undefined ? "any" : v === "full" ? "1.0" : v === "zero" ? "0" : "between",
            href: href({ score: v, page: 1 }),
            current: v === query.score,
          }))}
        />
      </div>
      {total === 0 ? (
        <EmptyState title={filtered ? "No episode matches these filters" : "No episodes yet"}>
          {filtered ? (
            <Link href={`/runs/${s.run.id}`} className="text-teal-700 underline">
              Clear the filters
            </Link>
          ) : (
            "Episodes appear here as the run makes them."
          )}
        </EmptyState>
      ) : (
        <EpisodesTable rows={items} />
      )}
      <Pager page={page} pages={pages} href={(n) => href({ page: n })}>
        {` (${total} episodes)`}
      </Pager>
    </>
  );
}
