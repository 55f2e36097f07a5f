"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import type { ImportState } from "@/lib/official/jobs";
import { formatBytes } from "@/lib/hub/bytes";

const button = "rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";

const bytes = (n = 0) => formatBytes(n);

/**
 * The benchmark's own task files fetched from the Hugging Face hub (through the cache Python
 * shares) and imported; the same as `colbench import --official`. Progress comes live from the
 * server (a bar per file, then the lines imported).
 */
export function OfficialImport({
  datasets,
  offered,
}: {
  /** The hub datasets whose official files are not imported yet. */ datasets: string[];
  offered: boolean;
}) {
  const router = useRouter();
  const [status, setStatus] = useState<ImportState>({ state: "idle" });
  const [error, setError] = useState<string | null>(null);
  // Once the tasks are in, the page stops offering them (the refresh below); a panel that watched
  // the import stays to show its results until the person leaves.
  const [watched, setWatched] = useState(false);

  useEffect(() => {
    const source = new EventSource("/api/tasks/import");
    source.addEventListener("import", (e) => {
      const next = JSON.parse((e as MessageEvent<string>).data) as ImportState;
      setStatus(next);
      if (next.state === "downloading" || next.state === "importing") setWatched(true);
      if (next.state === "finished") router.refresh();
    });
    return () => source.close();
  }, [router]);

  const start = async (split: "test" | "train") => {
    setWatched(true);
    setError(null);
    const response = await fetch("/api/tasks/import", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ split }),
    });
    if (!response.ok)
      setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
  };
  const busy = status.state === "downloading" || status.state === "importing";
  if (!offered && !watched) return null;

  return (
    <section
      className="mb-6 rounded-lg border border-teal-200 bg-teal-50/50 p-4 text-sm"
      data-testid="official-import"
      aria-labelledby="official-import-title"
    >
      <h2 id="official-import-title" className="font-medium text-stone-800">
        Official task sets
      </h2>
      <p className="mt-1 text-stone-600" data-testid="official-datasets">
        Fetch the benchmarks&apos; task files from{" "}
        {datasets.map((dataset, i) => (
          <span key={dataset}>
            {i ? ", " : ""}
            <code className="font-mono">{dataset}</code>
          </span>
        ))}{" "}
        on the Hugging Face hub into the cache Python&apos;s huggingface_hub shares (
        <code className="font-mono">HF_HOME</code>), and import them. The same as{" "}
        <code className="font-mono">npx colbench import --official</code>.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className={button} disabled={busy} onClick={() => void start("test")}>
          Import the test split
        </button>
        <button
          type="button"
          className="rounded-md px-3 py-2 text-sm text-teal-800 ring-1 ring-teal-300 hover:bg-teal-100 disabled:opacity-50"
          disabled={busy}
          onClick={() => void start("train")}
        >
          Import the train split
        </button>
        <ImportProgress status={status} />
      </div>
      {status.state === "finished" && status.results ? <ImportResults results={status.results} /> : null}
      {error ? (
        <p role="alert" className="mt-2 text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** The import in flight: the file being fetched with its bytes, the lines being imported, or why it failed. */
function ImportProgress({ status }: { status: ImportState }) {
  return (
    <span
      aria-live="polite"
      data-testid="official-import-status"
      data-state={status.state}
      className="flex items-center gap-2 text-stone-700"
    >
      {status.state === "downloading" ? (
        <>
          fetching {status.file ?? "the file list"}
          {status.total ? (
            <>
              <progress max={status.total} value={status.received ?? 0} /> {bytes(status.received)} of{" "}
              {bytes(status.total)}
            </>
          ) : null}
        </>
      ) : null}
      {status.state === "importing" ? (
        <>
          importing {status.benchmark} tasks: {status.lines} lines, {status.inserted} new
        </>
      ) : null}
      {status.state === "failed" ? <span className="text-red-700">{status.error}</span> : null}
    </span>
  );
}

/** What each official file gave: lines, new and already stored tasks, bad lines; or why it is absent. */
function ImportResults({ results }: { results: NonNullable<ImportState["results"]> }) {
  return (
    <ul className="mt-3 space-y-1 text-stone-700" data-testid="official-import-results">
      {results.map((r) => (
        <li key={r.file}>
          {r.absent ? (
            <span className="text-stone-500">{r.absent}</span>
          ) : (
            <>
              <code className="font-mono">{r.file}</code>: {r.lines} lines, {r.inserted} new, {r.existing} already
              stored{r.bad ? `, ${r.bad} bad` : ""}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
