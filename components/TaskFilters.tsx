import type { TaskQuery } from "@/lib/store/tasks";
import { BENCHMARKS, benchmarks } from "@/lib/benchmarks";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";

/** A plain GET form: filters are shareable URLs and work with the keyboard and without JavaScript. */
export function TaskFilters({ query }: { query: TaskQuery }) {
  return (
    <form method="get" action="/tasks" className="mb-4 flex flex-wrap items-end gap-3" role="search">
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Benchmark
        <select name="benchmark" defaultValue={query.benchmark ?? ""} className={field} aria-label="Benchmark">
          <option value="">all</option>
          {BENCHMARKS.map((name) => (
            <option key={name} value={name}>
              {benchmarks[name].title}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Split
        <select name="split" defaultValue={query.split ?? ""} className={field} aria-label="Split">
          <option value="">all</option>
          <option value="test">test</option>
          <option value="train">train</option>
          <option value="sample">sample</option>
        </select>
      </label>
      <label className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-xs text-stone-600">
        Search descriptions
        <input
          type="search"
          name="q"
          defaultValue={query.q ?? ""}
          placeholder="e.g. discount"
          className={`${field} w-full min-w-0`}
          aria-label="Search descriptions"
        />
      </label>
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Filter
      </button>
    </form>
  );
}
