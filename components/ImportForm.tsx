"use client";

import Link from "next/link";
import { useState } from "react";
import { BENCHMARKS, benchmarks } from "@/lib/benchmarks";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";
/** Each request carries whole lines and stays well under the studio's 1 MiB body limit. */
const PART_BYTES = 700_000;

interface Outcome {
  lines: number;
  stored: number;
  existing: number;
  problems: string[];
  /** Lines left out (a line can have several problems), when the server says: the CLI's "bad". */
  bad?: number;
  runId?: number;
}

/** Lines grouped into parts of bounded size, each with the number of its first line. */
function parts(text: string): Array<{ firstLine: number; lines: string[] }> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const out: Array<{ firstLine: number; lines: string[] }> = [];
  let current: string[] = [];
  let size = 0;
  let first = 1;
  lines.forEach((line, i) => {
    const bytes = new TextEncoder().encode(line).length + 8;
    if (current.length && size + bytes > PART_BYTES) {
      out.push({ firstLine: first, lines: current });
      current = [];
      size = 0;
      first = i + 1;
    }
    current.push(line);
    size += bytes;
  });
  if (current.length) out.push({ firstLine: first, lines: current });
  return out;
}

/** Uploads a task or trajectory file in parts and shows what was stored and every broken line. */
export function ImportForm() {
  const [kind, setKind] = useState<"tasks" | "trajectories">("tasks");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || !file.name) return setError("choose a file first");
    setError(null);
    setOutcome(null);
    try {
      const { outcome, error } = await uploadInParts(file, form, kind, (done, total) => setProgress({ done, total }));
      if (error) setError(error);
      setOutcome(outcome);
    } catch (error) {
      // An unreadable file or a reply that is not JSON: say so rather than leave the bar standing.
      setError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <>
      <form
        onSubmit={(event) => void submit(event)}
        className="grid max-w-3xl gap-4 rounded-lg border border-stone-200 bg-white p-6 sm:grid-cols-2"
      >
        <fieldset className="flex gap-4 text-sm sm:col-span-2">
          <legend className="sr-only">What the file holds</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="kind" checked={kind === "tasks"} onChange={() => setKind("tasks")} /> tasks
          </label>
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name="kind"
              checked={kind === "trajectories"}
              onChange={() => setKind("trajectories")}
            />{" "}
            trajectories (finished episodes)
          </label>
        </fieldset>
        <label className={`${label} sm:col-span-2`}>
          File (JSONL)
          <input type="file" name="file" accept=".jsonl,.json,.txt,application/jsonl" required className={field} />
        </label>
        {kind === "tasks" ? (
          <>
            <label className={label}>
              Benchmark
              <select name="benchmark" defaultValue={BENCHMARKS[0]} className={field}>
                {BENCHMARKS.map((name) => (
                  <option key={name} value={name}>
                    {benchmarks[name].title}
                  </option>
                ))}
              </select>
            </label>
            <label className={label}>
              Split
              <input name="split" defaultValue="test" className={field} />
            </label>
          </>
        ) : (
          <label className={`${label} sm:col-span-2`}>
            Run name (optional)
            <input name="runName" className={field} />
          </label>
        )}
        <div className="flex items-center gap-3 sm:col-span-2">
          <button
            type="submit"
            className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800"
          >
            Import
          </button>
          {progress ? (
            <span className="text-sm text-stone-600" data-testid="import-progress">
              part {progress.done} of {progress.total}
              <progress className="ml-2 align-middle" max={progress.total} value={progress.done} />
            </span>
          ) : null}
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2">
            {error}
          </p>
        ) : null}
      </form>
      {outcome ? <ImportResult outcome={outcome} kind={kind} /> : null}
    </>
  );
}

/**
 * Sends the file's parts, one request each, and adds up what the server says of them; a part refused
 * (or a request that fails) stops the upload, with what was stored before it.
 */
async function uploadInParts(
  file: File,
  form: FormData,
  kind: "tasks" | "trajectories",
  onPart: (done: number, total: number) => void,
): Promise<{ outcome: Outcome; error?: string }> {
  const chunks = parts(await file.text());
  const total: Outcome = { lines: 0, stored: 0, existing: 0, problems: [] };
  const named = form.get("runName");
  const runName = typeof named === "string" && named ? named : `imported-${file.name}`;
  onPart(0, chunks.length);
  for (const [i, chunk] of chunks.entries()) {
    const body =
      kind === "tasks"
        ? {
            kind,
            fileName: file.name,
            benchmark: form.get("benchmark"),
            split: form.get("split") || "test",
            ...chunk,
          }
        : { kind, fileName: file.name, runName, append: i > 0 && total.runId !== undefined, ...chunk };
    const response = await fetch("/api/uploads", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch((e: Error) => e);
    if (response instanceof Error || !response.ok) {
      const error =
        response instanceof Error
          ? response.message
          : (((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
      return { outcome: total, error };
    }
    const part = (await response.json()) as {
      lines?: number;
      valid?: number;
      inserted?: number;
      existing?: number;
      episodes?: number;
      runId?: number;
      problems: string[];
    };
    total.lines += part.lines ?? chunk.lines.filter((l) => l.trim()).length;
    total.stored += part.inserted ?? part.episodes ?? 0;
    total.existing += part.existing ?? 0;
    total.problems.push(...part.problems);
    if (part.lines !== undefined && part.valid !== undefined) total.bad = (total.bad ?? 0) + part.lines - part.valid;
    if (part.runId) total.runId = part.runId;
    onPart(i + 1, chunks.length);
  }
  return { outcome: total };
}

/** What an import stored, with a link to it and every problem line. */
function ImportResult({ outcome, kind }: { outcome: Outcome; kind: "tasks" | "trajectories" }) {
  return (
    <section className="mt-6 max-w-3xl" aria-label="Import result" data-testid="import-result">
      <p className="text-sm text-stone-800">
        {outcome.lines} lines read: {outcome.stored} {kind === "tasks" ? "tasks stored" : "episodes stored"}
        {kind === "tasks" ? `, ${outcome.existing} already there` : ""},{" "}
        {outcome.bad !== undefined
          ? `${outcome.bad} bad line${outcome.bad === 1 ? "" : "s"} left out${outcome.problems.length !== outcome.bad ? ` (${outcome.problems.length} problems)` : ""}`
          : `${outcome.problems.length} problem${outcome.problems.length === 1 ? "" : "s"}`}
        .{" "}
        {kind === "tasks" ? (
          <Link href="/tasks" className="text-teal-700 underline">
            See the tasks
          </Link>
        ) : outcome.runId ? (
          <Link href={`/runs/${outcome.runId}`} className="text-teal-700 underline">
            Open the run
          </Link>
        ) : null}
      </p>
      {outcome.problems.length ? (
        <ul
          className="mt-2 max-h-80 overflow-auto rounded border border-red-200 bg-red-50 p-3 font-mono text-xs text-red-900"
          data-testid="import-problems"
        >
          {outcome.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
