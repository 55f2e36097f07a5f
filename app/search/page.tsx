import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { SearchHits } from "@/components/SearchHits";
import type { TurnSearch } from "@/lib/store/search";
import { BENCHMARKS, benchmarks, isBenchmark } from "@/lib/benchmarks";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Search" };

const field = "rounded-md border border-stone-300 bg-white px-2 py-1 text-sm";

function num(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Every turn of every episode, found by what was said; each hit opens the replay at its turn. */
export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const query = await searchParams;
  const store = await getStore();
  const search = searchOf(query);

  // Asked together: the run list for the filter does not wait for the search, nor it for the list.
  const [runs, hits] = await Promise.all([
    store.runs.names({ includePlayed: true }),
    search.q.trim() ? store.episodes.search(search) : null,
  ]);
  return (
    <>
      <PageHeader title="Search">
        Find what was said in any episode: words, a &quot;quoted phrase&quot;, or -words to leave out. A hit opens the
        replay at its turn.
      </PageHeader>
      <SearchForm query={query} runs={runs} />
      {hits === null ? null : hits.length === 0 ? <NothingMatches search={search} /> : <SearchHits hits={hits} />}
    </>
  );
}

/** The search the page's query asks for; numbers that do not parse are left out. */
function searchOf(query: Record<string, string | undefined>): TurnSearch {
  return {
    q: query.q ?? "",
    runId: num(query.run),
    benchmark: isBenchmark(query.benchmark) ? query.benchmark : undefined,
    minReward: num(query.minReward),
    maxReward: num(query.maxReward),
    minAgentTurns: num(query.minTurns),
    maxAgentTurns: num(query.maxTurns),
    human: query.human === "yes" ? true : query.human === "no" ? false : undefined,
  };
}

/** The words and the filters: run, benchmark, reward, agent turns, who played. */
function SearchForm({
  query,
  runs,
}: {
  query: Record<string, string | undefined>;
  runs: Array<{ id: number; name: string }>;
}) {
  return (
    <form
      method="get"
      className="mb-6 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 text-sm sm:grid-cols-4"
      role="search"
    >
      <label className="flex flex-col gap-1 text-xs text-stone-600 sm:col-span-4">
        Words or phrase
        <input
          type="search"
          name="q"
          defaultValue={query.q ?? ""}
          autoFocus
          className={`${field} text-base`}
          placeholder='e.g. "members get a discount"'
        />
      </label>
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Run
        <select name="run" defaultValue={query.run ?? ""} className={field}>
          <option value="">any</option>
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Benchmark
        <select name="benchmark" defaultValue={query.benchmark ?? ""} className={field}>
          <option value="">any</option>
          {BENCHMARKS.map((name) => (
            <option key={name} value={name}>
              {benchmarks[name].title}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="flex flex-col gap-1 text-xs text-stone-600">
        <legend className="mb-1">Reward between</legend>
        <span className="flex gap-1">
          <input
            name="minReward"
            type="number"
            step="0.01"
            min={0}
            max={1}
            defaultValue={query.minReward}
            aria-label="lowest reward"
            className={`${field} w-20`}
          />
          <input
            name="maxReward"
            type="number"
            step="0.01"
            min={0}
            max={1}
            defaultValue={query.maxReward}
            aria-label="highest reward"
            className={`${field} w-20`}
          />
        </span>
      </fieldset>
      <fieldset className="flex flex-col gap-1 text-xs text-stone-600">
        <legend className="mb-1">Agent turns between</legend>
        <span className="flex gap-1">
          <input
            name="minTurns"
            type="number"
            min={0}
            max={10}
            defaultValue={query.minTurns}
            aria-label="fewest agent turns"
            className={`${field} w-20`}
          />
          <input
            name="maxTurns"
            type="number"
            min={0}
            max={10}
            defaultValue={query.maxTurns}
            aria-label="most agent turns"
            className={`${field} w-20`}
          />
        </span>
      </fieldset>
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Played by
        <select name="human" defaultValue={query.human ?? ""} className={field}>
          <option value="">anyone</option>
          <option value="yes">people (sessions)</option>
          <option value="no">models (benchmark runs)</option>
        </select>
      </label>
      <div className="flex items-end sm:col-span-3">
        <button type="submit" className="rounded-md bg-teal-700 px-4 py-1.5 text-white hover:bg-teal-800">
          Search
        </button>
      </div>
    </form>
  );
}

/** No hit: says whether the filters narrowed it, with a link to search everything. */
function NothingMatches({ search }: { search: TurnSearch }) {
  return (
    <EmptyState title="Nothing matches">
      No turn says that
      {search.runId ||
      search.benchmark ||
      search.minReward !== undefined ||
      search.maxReward !== undefined ||
      search.human !== undefined
        ? " within these filters"
        : ""}
      .{" "}
      <Link href={`/search?q=${encodeURIComponent(search.q)}`} className="text-teal-700 underline">
        Search everything
      </Link>
      .
    </EmptyState>
  );
}
