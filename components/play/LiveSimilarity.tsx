"use client";

import { useEffect, useRef, useState } from "react";
import type { SimilarityMessage, SimilarityRequest } from "@/lib/gpu/clip/browser-similarity";

interface Status {
  state: "waiting" | "loading" | "embedding" | "ready" | "failed";
  device?: string;
  loading?: { loaded: number; total: number };
  value?: number;
  embedder?: string;
  /** The agent's render the value is for. */
  agentRenderId?: string;
  error?: string;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * The CLIP similarity of the agent's current page to the target: what the frontend reward would be
 * if the agent stopped now, computed in this tab on WebGPU (a Web Worker) from the CLIP weights the
 * studio serves. Shown only where the target is (the collaborator seat, the replay); the agent's
 * seat never asks for it.
 */
export function LiveSimilarity({
  clip,
  agentRenderId,
  targetRenderId,
  label = "Similarity of the agent's page to your target",
}: {
  clip: string | null;
  agentRenderId: string | null;
  targetRenderId: string | null;
  label?: string;
}) {
  const [status, setStatus] = useState<Status>({ state: "waiting" });
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);

  useEffect(() => {
    if (!clip || !agentRenderId || !targetRenderId) return;
    if (!worker.current) {
      const w = new Worker(new URL("../../workers/browser/clip-similarity.worker.ts", import.meta.url), {
        type: "module",
        name: "clip-similarity",
      });
      w.onerror = (event) =>
        setStatus((s) => ({ ...s, state: "failed", error: event.message || "the similarity worker failed to start" }));
      w.onmessage = (event: MessageEvent<SimilarityMessage>) => {
        const m = event.data;
        switch (m.type) {
          case "adapter":
            return setStatus((s) => ({ ...s, state: "loading", device: m.device }));
          case "loading":
            return setStatus((s) => ({ ...s, state: "loading", loading: { loaded: m.loaded, total: m.total } }));
          case "embedding":
            return setStatus((s) => ({ ...s, state: "embedding" }));
          case "similarity":
            return setStatus((s) => ({
              ...s,
              state: "ready",
              value: m.value,
              embedder: m.embedder,
              agentRenderId: m.agentRenderId,
              error: undefined,
            }));
          case "error":
            return setStatus((s) => ({ ...s, state: "failed", error: m.message }));
        }
      };
      worker.current = w;
    }
    const request: SimilarityRequest = {
      type: "similarity",
      weightsBase: `${window.location.origin}/api/weights/clip`,
      rendersBase: `${window.location.origin}/api/renders`,
      agentRenderId,
      targetRenderId,
    };
    worker.current.postMessage(request);
  }, [clip, agentRenderId, targetRenderId]);

  if (!clip) {
    return (
      <p className="text-xs text-stone-500" data-testid="live-similarity-off">
        For a live CLIP similarity of the agent&apos;s page to the target here, start the studio with{" "}
        <code>--clip-weights DIR</code>.
      </p>
    );
  }
  const stale = status.state === "ready" && status.agentRenderId !== agentRenderId;
  return (
    <div
      className="rounded-lg border border-teal-200 bg-teal-50 px-3 py-2 text-sm"
      data-testid="live-similarity"
      data-state={stale ? "embedding" : status.state}
      data-value={status.value === undefined ? undefined : String(status.value)}
      data-agent-render={status.agentRenderId}
    >
      <span className="text-stone-600">{label} (CLIP, in this browser): </span>
      {status.value !== undefined ? (
        <strong className="font-mono text-teal-900">{status.value.toFixed(4)}</strong>
      ) : null}
      <span className="ml-2 text-xs text-stone-500">
        {!agentRenderId
          ? "waiting for the agent's first page"
          : status.state === "loading"
            ? `loading ${clip}${status.loading ? ` ${mb(status.loading.loaded)} of ${mb(status.loading.total)}` : ""}`
            : status.state === "embedding" || stale
              ? "embedding the new page…"
              : status.state === "failed"
                ? `unavailable: ${status.error}`
                : status.device
                  ? `${status.embedder} on ${status.device}`
                  : ""}
      </span>
    </div>
  );
}
