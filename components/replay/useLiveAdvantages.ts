"use client";

import { useEffect, useRef, useState } from "react";
import type { BrowserScoresBody, ScoreRequestMessage, ScoringMessage } from "@/lib/gpu/browser-scoring";
import type { SeatTurn } from "@/lib/play/seat-turns";
import type { LiveAdvantage } from "@/lib/store/episode-scores";

// Live advantages of an episode as it plays: every agent turn is scored the moment it appears. Where
// the tab may see the critic's prompt (researchers), it scores on this machine's GPU in the replay's
// Web Worker, with the models kept loaded between turns, and sends the numbers to be kept; where it
// may not (a person in the agent's seat, in coach mode), the studio's process scores and only the
// numbers come back. Either way the numbers then come from the episode's kept records.

export interface LiveAdvantageSettings {
  /** `tab`: this tab's WebGPU (it may be sent the critic's prompt); `studio`: the studio's process. */
  where: "tab" | "studio";
  /** The model folders the studio serves (null: none, so nothing is computed). */
  served: { critic: string | null; policy: string | null };
  /** The values kept so far. */
  initial: LiveAdvantage[];
}

export interface LiveAdvantageState {
  on: boolean;
  where: LiveAdvantageSettings["where"];
  values: LiveAdvantage[];
  /** Agent turns being scored now. */
  pending: number[];
  /** The adapter this tab scores on, once the worker has opened it. */
  device: string | null;
  loading: { model: string; loaded: number; total: number } | null;
  error: string | null;
}

const errorOf = async (response: Response) =>
  ((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`;

/** Scores with a Web Worker that keeps the models between turns; answers come in the order asked. */
function useTabScorer(
  episodeId: number,
  update: (patch: (s: LiveAdvantageState) => Partial<LiveAdvantageState>) => void,
) {
  const worker = useRef<Worker | null>(null);
  const waiting = useRef<
    Array<{ resolve: (m: ScoringMessage & { type: "done" }) => void; reject: (e: Error) => void }>
  >([]);
  const device = useRef("WebGPU");
  useEffect(
    () => () => {
      worker.current?.terminate();
      worker.current = null;
    },
    [],
  );

  const start = () => {
    const w = new Worker(new URL("../../workers/browser/gpu-scoring.worker.ts", import.meta.url), {
      type: "module",
      name: "live-advantages",
    });
    w.onerror = (event) => {
      for (const p of waiting.current.splice(0)) p.reject(new Error(event.message || "the scoring worker failed"));
    };
    w.onmessage = (event: MessageEvent<ScoringMessage>) => {
      const m = event.data;
      if (m.type === "adapter") {
        device.current = m.device;
        update(() => ({ device: m.device, loading: null }));
      } else if (m.type === "loading")
        update(() => ({ loading: { model: m.model, loaded: m.loaded, total: m.total } }));
      else if (m.type === "done") waiting.current.shift()?.resolve(m);
      else if (m.type === "error") waiting.current.shift()?.reject(new Error(m.message));
    };
    return w;
  };

  return async (turn: number): Promise<void> => {
    const response = await fetch(`/api/episodes/${episodeId}/score-inputs`, { cache: "no-store" });
    if (!response.ok) throw new Error(await errorOf(response));
    const inputs = (await response.json()) as ScoreRequestMessage["inputs"];
    worker.current ??= start();
    const done = new Promise<ScoringMessage & { type: "done" }>((resolve, reject) =>
      waiting.current.push({ resolve, reject }),
    );
    const message: ScoreRequestMessage = {
      type: "score",
      weightsBase: `${window.location.origin}/api/weights`,
      inputs,
      only: [turn],
      keep: true,
    };
    worker.current.postMessage(message);
    const result = await done;
    const body: BrowserScoresBody = { device: device.current, definition: result.definition, turns: result.turns };
    const kept = await fetch(`/api/episodes/${episodeId}/advantages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!kept.ok) throw new Error(`keeping turn ${turn}'s advantage: ${await errorOf(kept)}`);
  };
}

export function useLiveAdvantages(
  episodeId: number,
  turns: SeatTurn[],
  settings: LiveAdvantageSettings | null,
): LiveAdvantageState {
  const on = Boolean(settings?.served.critic && settings.served.policy);
  const [state, setState] = useState<LiveAdvantageState>({
    on,
    where: settings?.where ?? "studio",
    values: settings?.initial ?? [],
    pending: [],
    device: null,
    loading: null,
    error: null,
  });
  const update = (patch: (s: LiveAdvantageState) => Partial<LiveAdvantageState>) =>
    setState((s) => ({ ...s, ...patch(s) }));
  const scoreInTab = useTabScorer(episodeId, update);
  const asked = useRef(new Set((settings?.initial ?? []).map((v) => v.turn)));
  const chain = useRef(Promise.resolve());

  const key = turns
    .filter((t) => t.role === "agent")
    .map((t) => t.index)
    .join(",");
  useEffect(() => {
    if (!on || !settings || !key) return;
    const fresh = key
      .split(",")
      .map(Number)
      .filter((t) => !asked.current.has(t));
    if (!fresh.length) return;
    for (const t of fresh) asked.current.add(t);
    update((s) => ({ pending: [...s.pending, ...fresh] }));
    // One turn after another: each is kept before the next is asked for.
    for (const turn of fresh) {
      chain.current = chain.current.then(async () => {
        try {
          if (settings.where === "tab") {
            await scoreInTab(turn);
            const response = await fetch(`/api/episodes/${episodeId}/advantages/live`, { cache: "no-store" });
            if (!response.ok) throw new Error(await errorOf(response));
            const { advantages } = (await response.json()) as { advantages: LiveAdvantage[] };
            update(() => ({ values: advantages, error: null }));
          } else {
            const response = await fetch(`/api/episodes/${episodeId}/advantages/live`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ turns: [turn] }),
            });
            if (!response.ok) throw new Error(await errorOf(response));
            const { advantages } = (await response.json()) as { advantages: LiveAdvantage[] };
            update(() => ({ values: advantages, error: null }));
          }
        } catch (error) {
          update(() => ({ error: `turn ${turn}: ${(error as Error).message}` }));
        } finally {
          update((s) => ({ pending: s.pending.filter((p) => p !== turn) }));
        }
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the turns to score are `key`; the rest is fixed per episode
  }, [key, on]);

  return state;
}
