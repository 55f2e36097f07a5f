"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ScoreRequestMessage, ScoringMessage } from "@/lib/gpu/browser-scoring";

interface Status {
  state: "idle" | "fetching" | "loading" | "scoring" | "storing" | "stored" | "failed";
  device?: string;
  loading?: { model: string; loaded: number; total: number };
  scoring?: { done: number; total: number };
  template?: string;
  stored?: { turns: number; candidates: number };
  error?: string;
}

const button = "rounded-md bg-teal-700 px-3 py-1 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * "Score turns in this browser": the critic and policy the studio serves are loaded onto this
 * machine's GPU in a Web Worker (WebGPU), every agent turn (and its candidates) is scored there,
 * and the advantages are stored; the chart above then shows them.
 */
export function BrowserScoring({ episodeId, served }: { episodeId: number; served: { policy: string | null; critic: string | null } }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);

  if (!served.policy || !served.critic) {
    return (
      <p className="mb-6 text-xs text-stone-500" data-testid="browser-scoring-off">
        To score these turns in your browser (WebGPU), start the studio with <code>--policy-weights DIR --critic-weights DIR</code>.
      </p>
    );
  }

  const fail = (error: string) => {
    worker.current?.terminate();
    worker.current = null;
    setStatus((s) => ({ ...s, state: "failed", error }));
  };

  const store = async (turns: Extract<ScoringMessage, { type: "done" }>["turns"]) => {
    setStatus((s) => ({ ...s, state: "storing" }));
    const response = await fetch(`/api/episodes/${episodeId}/advantages`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ turns }) });
    const body = (await response.json().catch(() => ({}))) as { error?: string; turns?: number; candidates?: number };
    if (!response.ok) return fail(body.error ?? `storing the scores: HTTP ${response.status}`);
    setStatus((s) => ({ ...s, state: "stored", stored: { turns: body.turns ?? 0, candidates: body.candidates ?? 0 } }));
    // The chart and the candidates are drawn from what is stored.
    router.refresh();
  };

  const start = async () => {
    setStatus({ state: "fetching" });
    const response = await fetch(`/api/episodes/${episodeId}/score-inputs`);
    if (!response.ok) return fail(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
    const inputs = (await response.json()) as ScoreRequestMessage["inputs"];
    const w = new Worker(new URL("../../workers/browser/gpu-scoring.worker.ts", import.meta.url), { type: "module", name: "gpu-scoring" });
    worker.current = w;
    w.onerror = (event) => fail(event.message || "the scoring worker failed to start");
    w.onmessage = (event: MessageEvent<ScoringMessage>) => {
      const m = event.data;
      switch (m.type) {
        case "adapter":
          return setStatus((s) => ({ ...s, state: "loading", device: m.device }));
        case "loading":
          return setStatus((s) => ({ ...s, state: "loading", loading: { model: m.model, loaded: m.loaded, total: m.total } }));
        case "template":
          return setStatus((s) => ({ ...s, template: `${m.template} (${m.from})` }));
        case "scoring":
          return setStatus((s) => ({ ...s, state: "scoring", scoring: { done: m.done, total: m.total } }));
        case "done":
          w.terminate();
          worker.current = null;
          return void store(m.turns);
        case "error":
          return fail(m.message);
      }
    };
    const message: ScoreRequestMessage = { type: "score", weightsBase: `${window.location.origin}/api/weights`, inputs };
    w.postMessage(message);
  };

  const busy = ["fetching", "loading", "scoring", "storing"].includes(status.state);
  return (
    <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm" data-testid="browser-scoring" data-state={status.state} aria-labelledby="browser-scoring-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="browser-scoring-title" className="font-medium text-stone-800">
            Critic advantages on this machine
          </h2>
          <p className="text-xs text-stone-500">
            critic <code>{served.critic}</code> · policy <code>{served.policy}</code> · WebGPU in your browser; nothing is sent to a model server
          </p>
        </div>
        <button type="button" className={button} disabled={busy} onClick={() => void start()}>
          Score turns in this browser
        </button>
      </div>
      <div className="mt-2 space-y-1 text-stone-700" aria-live="polite" data-testid="browser-scoring-status">
        {status.device ? <p>GPU: {status.device}</p> : null}
        {status.state === "fetching" ? <p>Reading the episode…</p> : null}
        {status.loading && status.state === "loading" ? (
          <p className="flex items-center gap-2">
            Loading the {status.loading.model}: {mb(status.loading.loaded)} of {mb(status.loading.total)}
            <progress max={status.loading.total} value={status.loading.loaded} data-testid="loading-progress" />
          </p>
        ) : null}
        {status.template ? <p>Chat template: {status.template}</p> : null}
        {status.scoring && status.state === "scoring" ? (
          <p className="flex items-center gap-2">
            Scoring agent turns: {status.scoring.done} of {status.scoring.total}
            <progress max={status.scoring.total} value={status.scoring.done} data-testid="scoring-progress" />
          </p>
        ) : null}
        {status.state === "storing" ? <p>Storing the scores…</p> : null}
        {status.stored ? (
          <p data-testid="browser-scoring-stored">
            Stored the advantages of {status.stored.turns} agent turn{status.stored.turns === 1 ? "" : "s"}
            {status.stored.candidates ? ` (${status.stored.candidates} candidates)` : ""}.
          </p>
        ) : null}
        {status.error ? (
          <p role="alert" className="text-red-700">
            {status.error}
          </p>
        ) : null}
      </div>
    </section>
  );
}
