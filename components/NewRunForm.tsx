"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { BENCHMARKS, benchmarks, isBenchmark, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { useJsonForm } from "./useJsonForm";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";

export function NewRunForm() {
  const router = useRouter();
  const { submit, error, busy } = useJsonForm<{ id?: number; error?: string }>("/api/runs", (reply) =>
    router.push(`/runs/${reply.id}`),
  );
  const [benchmark, setBenchmark] = useState<Benchmark>(BENCHMARKS[0]);
  const { RunOptions } = benchmarkViews[benchmark];

  return (
    <form
      onSubmit={submit}
      className="grid max-w-3xl gap-4 rounded-lg border border-stone-200 bg-white p-6 sm:grid-cols-2"
    >
      <label className={label}>
        Benchmark
        <select
          name="benchmark"
          className={field}
          value={benchmark}
          onChange={(e) => isBenchmark(e.target.value) && setBenchmark(e.target.value)}
        >
          {BENCHMARKS.map((name) => (
            <option key={name} value={name}>
              {benchmarks[name].title}
            </option>
          ))}
        </select>
      </label>
      {/* The hint describes the field but is not its name (a label holding it would answer to every word in it). */}
      <div className={label}>
        <label htmlFor="run-tasks">Tasks</label>
        <input id="run-tasks" name="tasks" defaultValue="all" className={field} aria-describedby="tasks-hint" />
        <span id="tasks-hint" className="text-xs font-normal text-stone-500">
          all · split=test · source=FILE · index=0-49 (the benchmark&apos;s own order in its file, from 0; lines=1-50
          from 1) · ids=21,25,30-40 (the studio&apos;s task numbers, #N on the Tasks page). Commas combine them:
          split=test,index=0-99.
        </span>
      </div>
      <label className={`${label} sm:col-span-2`}>
        Agent server (URL#MODEL)
        <input
          name="agent"
          required
          placeholder="http://localhost:8000/v1#meta-llama/Llama-3.1-8B-Instruct"
          className={`${field} font-mono`}
        />
      </label>
      <label className={`${label} sm:col-span-2`}>
        Simulator server (URL#MODEL)
        <input
          name="simulator"
          required
          placeholder="http://localhost:8001/v1#meta-llama/Llama-3.1-70B-Instruct"
          className={`${field} font-mono`}
        />
      </label>
      <label className={label}>
        Limit (first N tasks)
        <input name="limit" type="number" min={1} className={field} />
      </label>
      <label className={label}>
        Best of k
        <input name="bestOf" type="number" min={1} defaultValue={1} className={field} />
      </label>
      <label className={label}>
        Concurrency
        <input name="concurrency" type="number" min={1} defaultValue={8} className={field} />
      </label>
      <label className={label}>
        Name (optional)
        <input name="name" className={field} />
      </label>
      {/* Options only this benchmark's runs have (their inputs' names are the API's fields). */}
      {RunOptions ? <RunOptions /> : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2">
          {error}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {busy ? "Starting…" : "Start run"}
        </button>
      </div>
    </form>
  );
}
