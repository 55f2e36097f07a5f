"use client";

import { useEffect, useRef, useState } from "react";
import type { GenerationMessage, GenerationRequest } from "@/lib/gpu/browser-generation";
import type { TabAgentView } from "@/lib/play/seat-views";
import type { TabTurnRequest } from "@/lib/play/tab-agent";
import type { EpisodeStreamState } from "@/components/live/useEpisodeStream";

/** Where the agent in this tab is: loading the policy, waiting for its move, writing one, or stopped by an error. */
export interface InTabAgentState {
  phase: "idle" | "loading" | "ready" | "writing" | "sending" | "failed";
  device?: string;
  loading?: { loaded: number; total: number; cachedFiles: number; cachedBytes: number; files: number };
  template?: string;
  /** The turn being written now (or last written), its text so far. */
  turn?: { index: number; text: string; tokens: number };
  /** The last turn sent, and how fast it came. */
  sent?: { index: number; tokens: number; firstTokenMs: number; tokensPerSecond: number | null };
  error?: { kind: "no-webgpu" | "memory" | "failed" | "refused"; message: string };
}

type Done = Extract<GenerationMessage, { type: "done" }>;

/** Prompt tokens a turn may hold beside its new ones, for the memory check before loading. */
const PROMPT_ROOM = 2048;

/**
 * The agent of this episode as a model in this tab: a Web Worker loads the served policy once; each
 * time the agent's move is awaited, the studio is asked for the turn's prompt (the agent's own view,
 * and this tab then holds the agent's seat), the worker writes it, streaming, and the page posts it as
 * the agent's move.
 */
export function useInTabAgent(
  episodeId: number,
  agent: TabAgentView | null,
  live: Pick<EpisodeStreamState, "awaiting" | "playing" | "status">,
): { state: InTabAgentState; retry: () => void } {
  const ended = live.status === "done" || live.status === "failed";
  const on = agent !== null && !ended;
  const [state, setState] = useState<InTabAgentState>({ phase: on ? "loading" : "idle" });
  const worker = useRef<Worker | null>(null);
  const tab = useRef<string>("");
  const started = useRef<number | null>(null);
  const waiting = useRef(new Map<number, (done: Done) => void>());
  const ids = useRef(0);

  useEffect(() => {
    if (!on) return;
    // randomUUID exists only in a secure context; without one the worker says WebGPU is missing.
    tab.current =
      globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const w = new Worker(new URL("../../workers/browser/gpu-generation.worker.ts", import.meta.url), {
      type: "module",
      name: "gpu-generation",
    });
    worker.current = w;
    w.onerror = (event) =>
      setState((s) => ({
        ...s,
        phase: "failed",
        error: { kind: "failed", message: event.message || "the generation worker failed" },
      }));
    w.onmessage = (event: MessageEvent<GenerationMessage>) => {
      const m = event.data;
      switch (m.type) {
        case "adapter":
          return setState((s) => ({ ...s, device: m.device }));
        case "loading":
          return setState((s) => ({
            ...s,
            loading: {
              loaded: m.loaded,
              total: m.total,
              cachedFiles: m.cachedFiles,
              cachedBytes: m.cachedBytes,
              files: m.files,
            },
          }));
        case "ready":
          return setState((s) => ({ ...s, phase: "ready", template: m.template }));
        case "text":
          return setState((s) =>
            s.turn ? { ...s, turn: { ...s.turn, text: s.turn.text + m.piece, tokens: m.tokens } } : s,
          );
        case "done":
          waiting.current.get(m.id)?.(m);
          waiting.current.delete(m.id);
          return;
        case "error":
          return setState((s) => ({ ...s, phase: "failed", error: { kind: m.kind, message: m.message } }));
      }
    };
    const load: GenerationRequest = {
      type: "load",
      weightsBase: `${window.location.origin}/api/weights/policy`,
      model: agent.model,
      tokens: agent.maxTokens + PROMPT_ROOM,
    };
    w.postMessage(load);
    return () => {
      w.terminate();
      worker.current = null;
    };
    // The worker lives as long as the page holds the seat; the agent's settings do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [on]);

  const write = (request: TabTurnRequest): Promise<Done> => {
    const id = ++ids.current;
    const done = new Promise<Done>((resolve) => waiting.current.set(id, resolve));
    const message: GenerationRequest = {
      type: "generate",
      id,
      messages: request.messages,
      sampling: { temperature: request.sampling.temperature, topP: request.sampling.topP, seed: request.sampling.seed },
      maxNewTokens: request.sampling.maxTokens,
    };
    worker.current!.postMessage(message);
    return done;
  };

  const refuse = (message: string) => setState((s) => ({ ...s, phase: "failed", error: { kind: "refused", message } }));

  const playTurn = async (index: number) => {
    setState((s) => ({ ...s, phase: "writing", turn: { index, text: "", tokens: 0 }, error: undefined }));
    const asked = await fetch(`/api/episodes/${episodeId}/agent-turn`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tab: tab.current }),
    });
    const body = (await asked.json().catch(() => ({}))) as TabTurnRequest & { error?: string };
    if (!asked.ok) return refuse(body.error ?? `asking for the agent's turn: HTTP ${asked.status}`);
    const out = await write(body);
    setState((s) => ({ ...s, phase: "sending", turn: { index, text: out.text, tokens: out.completionTokens } }));
    const moved = await fetch(`/api/episodes/${episodeId}/move`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        role: "agent",
        // PostgreSQL's text holds no NUL character, which a byte-level tokenizer can write.
        text: out.text.replaceAll("\u0000", "\uFFFD"),
        tab: tab.current,
        usage: { promptTokens: out.promptTokens, completionTokens: out.completionTokens },
      }),
    });
    if (!moved.ok) {
      const refused = (await moved.json().catch(() => ({}))) as { error?: string };
      return refuse(refused.error ?? `sending the agent's move: HTTP ${moved.status}`);
    }
    setState((s) => ({
      ...s,
      phase: "ready",
      sent: {
        index,
        tokens: out.completionTokens,
        firstTokenMs: out.firstTokenMs,
        tokensPerSecond: out.decodeMs > 0 ? ((out.completionTokens - 1) * 1000) / out.decodeMs : null,
      },
    }));
  };

  const awaitedTurn = live.playing && live.awaiting?.role === "agent" ? (live.awaiting.agentTurn ?? 0) : null;
  const ready = state.phase === "ready";
  useEffect(() => {
    if (!ready || awaitedTurn === null || started.current === awaitedTurn) return;
    started.current = awaitedTurn;
    playTurn(awaitedTurn).catch((error: Error) => refuse(error.message));
    // playTurn reads refs and this render's episode; the turn number is what starts it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, awaitedTurn]);

  const retry = () => {
    started.current = null;
    setState((s) => ({ ...s, phase: "ready", error: undefined }));
  };
  return { state, retry };
}
