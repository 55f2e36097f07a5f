"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useJsonForm } from "@/components/useJsonForm";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";

interface Created {
  episodeId?: number;
  agentUrl?: string;
  simulatorUrl?: string;
  error?: string;
}

/** Start an episode with yourself in a seat; the other seat is a model server or a second person. */
export function NewPlayForm({ defaultOpponent }: { defaultOpponent?: string }) {
  const router = useRouter();
  const [seat, setSeat] = useState<"simulator" | "agent" | "both">("simulator");
  const { submit, error, busy } = useJsonForm<Created>("/api/play", (reply) => router.push(seat === "agent" ? reply.agentUrl! : reply.simulatorUrl!));

  return (
    <form onSubmit={submit} className="grid max-w-3xl gap-4 rounded-lg border border-stone-200 bg-white p-6 sm:grid-cols-2" aria-label="Start playing">
      <label className={label}>
        Benchmark
        <select name="benchmark" className={field} defaultValue="backend">
          <option value="backend">backend (Python function)</option>
          <option value="frontend">frontend (web page)</option>
        </select>
      </label>
      <label className={label}>
        Task id (empty: a random task)
        <input name="taskId" type="number" min={1} className={field} />
      </label>
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-xs text-stone-600">You play</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {[
            ["simulator", "the collaborator (you see the hidden solution)"],
            ["agent", "the agent (you write the code)"],
            ["both", "with a second person: you take the collaborator, they the agent"],
          ].map(([value, text]) => (
            <label key={value} className="flex items-center gap-1.5">
              <input type="radio" name="seat" value={value} checked={seat === value} onChange={() => setSeat(value as typeof seat)} />
              {text}
            </label>
          ))}
        </div>
      </fieldset>
      {seat !== "both" ? (
        <label className={`${label} sm:col-span-2`}>
          The other side: a model server (URL#MODEL), or &quot;human&quot; for a second person who joins by link
          <input name="opponent" required defaultValue={defaultOpponent} placeholder="http://localhost:8000/v1#meta-llama/Llama-3.1-8B-Instruct" className={`${field} font-mono`} />
        </label>
      ) : null}
      {error ? <p className="text-sm text-red-700 sm:col-span-2" role="alert">{error}</p> : null}
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50">
          {busy ? "Starting…" : "Start playing"}
        </button>
      </div>
    </form>
  );
}
