"use client";

import { useEffect, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";

interface StepEvent {
  step: "pairs" | "candidates" | "rank" | "turn-pairs";
  state: "running" | "finished" | "stopped" | "crashed";
  done: number;
  total: number;
  summary?: Record<string, number>;
  error?: string;
}

const LABELS: Record<StepEvent["step"], string> = { pairs: "Trajectory pairs", candidates: "Candidates", rank: "Ranking", "turn-pairs": "Turn pairs" };
const field = "rounded-md border border-stone-300 bg-white px-2 py-1 text-sm";
const button = "rounded-md bg-teal-700 px-3 py-1 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";

/**
 * SWEET-RL's steps on this run's data, with their progress live from the run's event stream:
 * pairs for the critic, candidates from a policy, the critic's ranking, pairs for the policy,
 * and the training files to download. A stopped step continues where it stopped.
 */
export function PipelinePanel({ runId }: { runId: number }) {
  const router = useRouter();
  const [status, setStatus] = useState<StepEvent | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const source = new EventSource(`/api/runs/${runId}/events`);
    source.addEventListener("pipeline", (e) => {
      const next = JSON.parse((e as MessageEvent<string>).data) as StepEvent;
      setStatus(next);
      if (next.state !== "running") router.refresh();
    });
    return () => source.close();
  }, [runId, router]);

  const post = async (path: string, body?: unknown) => {
    setError(null);
    const response = await fetch(`/api/runs/${runId}/${path}`, { method: "POST", ...(body ? { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : {}) });
    if (!response.ok) setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
  };
  const start = (step: StepEvent["step"]) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    void post("pipeline", {
      step,
      server: value("server"),
      n: value("n"),
      groundTruth: form.has("groundTruth") ? form.get("groundTruth") === "on" : undefined,
      pairsPerState: value("pairsPerState"),
      seed: value("seed"),
    });
  };
  const running = status?.state === "running";

  return (
    <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm" data-testid="pipeline" aria-labelledby="pipeline-title">
      <h2 id="pipeline-title" className="mb-3 font-medium text-stone-800">
        Training data (SWEET-RL)
      </h2>
      <div className="mb-3 text-stone-700" aria-live="polite" data-testid="pipeline-status" data-state={status?.state ?? "idle"}>
        {status ? (
          <span className="flex items-center gap-3">
            {LABELS[status.step]}: {status.state}
            {status.total ? ` · ${status.done}/${status.total}` : ""}
            {status.summary ? ` · ${Object.entries(status.summary).map(([k, v]) => `${k} ${v}`).join(", ")}` : ""}
            {status.error ? <span className="text-red-700"> · {status.error}</span> : null}
            {running && status.total ? <progress max={status.total} value={status.done} /> : null}
            {running ? (
              <button type="button" className="rounded-md px-2 py-0.5 ring-1 ring-stone-300" onClick={() => void post("pipeline/stop")}>
                Stop
              </button>
            ) : null}
          </span>
        ) : (
          "No step has worked on this run's data here yet."
        )}
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <form onSubmit={start("pairs")} className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-1">
            <input type="checkbox" name="groundTruth" /> with the final answer
          </label>
          <button type="submit" className={button} disabled={running}>
            Make trajectory pairs
          </button>
        </form>
        <form onSubmit={start("candidates")} className="flex flex-wrap items-center gap-2">
          <input name="server" required placeholder="policy URL#MODEL" aria-label="Policy server" className={`${field} w-64`} />
          <input name="n" type="number" min={1} max={64} defaultValue={16} aria-label="Candidates per turn" className={`${field} w-16`} />
          <button type="submit" className={button} disabled={running}>
            Sample candidates
          </button>
        </form>
        <form onSubmit={start("rank")} className="flex flex-wrap items-center gap-2">
          <input name="server" required placeholder="critic URL#MODEL" aria-label="Critic server" className={`${field} w-64`} />
          <label className="flex items-center gap-1">
            <input type="checkbox" name="groundTruth" defaultChecked /> final answer
          </label>
          <button type="submit" className={button} disabled={running}>
            Rank candidates
          </button>
        </form>
        <form onSubmit={start("turn-pairs")} className="flex flex-wrap items-center gap-2">
          <input name="pairsPerState" type="number" min={1} max={64} defaultValue={4} aria-label="Pairs per turn" className={`${field} w-16`} />
          <input name="seed" type="number" defaultValue={42} aria-label="Seed" className={`${field} w-20`} />
          <button type="submit" className={button} disabled={running}>
            Draw turn pairs
          </button>
        </form>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-red-700">
          {error}
        </p>
      ) : null}
      <p className="mt-3 flex flex-wrap gap-3 text-stone-600">
        Download:
        {["official", "official-best-of-k", "openrlhf-critic", "openrlhf-policy", "trl-dpo"].map((format) => (
          <a key={format} href={`/api/runs/${runId}/export?format=${format}`} className="text-teal-700 hover:underline">
            {format}
          </a>
        ))}
      </p>
    </section>
  );
}
