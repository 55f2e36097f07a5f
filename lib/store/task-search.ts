import { isBenchmark } from "../benchmarks";
import type { TaskQuery } from "./tasks";

/** The Tasks page and /api/tasks read the same query string, so links and API calls agree. */
export function parseTaskSearch(params: Record<string, string | string[] | undefined> | URLSearchParams): TaskQuery {
  const get = (key: string): string | undefined => {
    if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const benchmark = get("benchmark");
  const page = Number.parseInt(get("page") ?? "", 10);
  const pageSize = Number.parseInt(get("pageSize") ?? "", 10);
  return {
    benchmark: isBenchmark(benchmark) ? benchmark : undefined,
    split: get("split") || undefined,
    q: get("q")?.trim() || undefined,
    page: Number.isFinite(page) && page > 0 ? page : 1,
    pageSize: Number.isFinite(pageSize) && pageSize > 0 ? pageSize : undefined,
  };
}

export function searchHref(query: TaskQuery, patch: Partial<TaskQuery>): string {
  const merged = { ...query, ...patch };
  const params = new URLSearchParams();
  if (merged.benchmark) params.set("benchmark", merged.benchmark);
  if (merged.split) params.set("split", merged.split);
  if (merged.q) params.set("q", merged.q);
  if (merged.page && merged.page > 1) params.set("page", String(merged.page));
  if (merged.pageSize) params.set("pageSize", String(merged.pageSize));
  const text = params.toString();
  return text ? `/tasks?${text}` : "/tasks";
}
