import type { EpisodesQuery } from "./snapshot";

// The run page's episodes table in its address: the page's links, its event stream and its export
// links all write the filters, order and page the same way, so each asks the store for the same rows.

/** The query's search parameters, in a fixed order ("" for the unfiltered first page by episode number). */
export function episodesSearch(query: EpisodesQuery, options: { page?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (query.score) params.set("score", query.score);
  if (query.sort) {
    params.set("sort", query.sort);
    params.set("dir", query.dir ?? "asc");
  }
  if (options.page !== false && query.page && query.page > 1) params.set("page", String(query.page));
  return params.toString();
}
