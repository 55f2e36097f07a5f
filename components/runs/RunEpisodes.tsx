"use client";

import Link from "next/link";
import type { ScoreBand } from "@/lib/store/runs";
import type { EpisodesQuery } from "@/lib/runs/snapshot";
import { episodesSearch } from "@/lib/runs/episodes-search";
import { SortableTable } from "@/components/table/SortableTable";
import { EPISODE_COLUMNS, episodeRows } from "@/components/table/episodes-table";
import { FilterPills } from "@/components/FilterPills";
import { Pager } from "@/components/Pager";
import { EmptyState } from "@/components/EmptyState";
import { useRunSnapshot } from "./snapshot-context";

const STATUSES = ["done", "failed", "running", "pending"] as const;
// lib/store/runs.ts's SCORE_BANDS (a client component does not load the store's module).
const SCORE_BANDS: readonly ScoreBand[] = ["full", "partial", "zero"];
// On the page a failure's reason stands in its Status cell, as it always has; the exports keep it a column of its own.
const PAGE_COLUMNS = EPISODE_COLUMNS.filter((c) => c.id !== "failure");

/**
 * The run's page of episodes under the address's filters and order, from the snapshot, with the
 * filters, the pager and the downloads of every episode under the same filters in the same order.
 * The store orders the whole run before the page is cut, so a header links to `?sort=&dir=`.
 */
export function RunEpisodes() {
  const s = useRunSnapshot();
  const { items, total, page, pages, query } = s.episodes;
  const href = (patch: EpisodesQuery) => {
    const text = episodesSearch({ ...query, page, ...patch });
    return `/runs/${s.run.id}${text ? `?${text}` : ""}`;
  };
  const filtered = Boolean(query.status || query.score);
  const every = episodesSearch(query, { page: false });
  const exportHref = (format: "csv" | "json") =>
    `/api/runs/${s.run.id}/episodes?format=${format}${every ? `&${every}` : ""}`;
  const rows = episodeRows(items).map((row, i) => {
    const failure = items[i]!.failure;
    if (!failure) return row;
    const status = (
      <span className="text-red-700">
        failed: <span className="text-xs">{failure.length > 120 ? `${failure.slice(0, 120)}…` : failure}</span>
      </span>
    );
    return { ...row, nodes: { ...row.nodes, status }, titles: { ...row.titles, status: failure } };
  });
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
        <SortableTable
          testId="episodes-table"
          name={`${s.run.name}-episodes`}
          dense
          columns={PAGE_COLUMNS}
          rows={rows}
          serverSort={{ order: query.sort ? { column: query.sort, dir: query.dir ?? "asc" } : null, base: href({}) }}
          exportHrefs={{ csv: exportHref("csv"), json: exportHref("json") }}
          caption={`${total} episode${total === 1 ? "" : "s"}${pages > 1 ? `, page ${page} of ${pages}` : ""}`}
        />
      )}
      <Pager page={page} pages={pages} href={(n) => href({ page: n })}>
        {` (${total} episodes)`}
      </Pager>
    </>
  );
}
