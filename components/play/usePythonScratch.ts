"use client";

import { useCallback, useEffect, useRef, useState } from "react";

type ScratchState = "idle" | "booting" | "ready" | "running" | "failed";

/** The person's own Python, run by Pyodide in a Web Worker of this tab (never on the server). */
export function usePythonScratch() {
  const worker = useRef<Worker | null>(null);
  const pending = useRef(new Map<number, (r: { ok: boolean; output: string }) => void>());
  const nextId = useRef(1);
  const [state, setState] = useState<ScratchState>("idle");

  const ensure = useCallback(() => {
    if (worker.current) return worker.current;
    setState("booting");
    const w = new Worker("/vendor/python-scratch.js", { type: "module", name: "python-scratch" });
    w.onmessage = (
      event: MessageEvent<{ type: string; id?: number; ok?: boolean; output?: string; message?: string }>,
    ) => {
      const data = event.data;
      if (data.type === "ready") setState((s) => (s === "running" ? s : "ready"));
      if (data.type === "failed") setState("failed");
      if (data.type === "result" && data.id !== undefined) {
        pending.current.get(data.id)?.({ ok: Boolean(data.ok), output: data.output ?? "" });
        pending.current.delete(data.id);
        setState("ready");
      }
    };
    worker.current = w;
    return w;
  }, []);

  useEffect(() => () => worker.current?.terminate(), []);

  const run = useCallback(
    (code: string) =>
      new Promise<{ ok: boolean; output: string }>((resolve) => {
        const id = nextId.current++;
        pending.current.set(id, resolve);
        setState("running");
        ensure().postMessage({ id, code });
      }),
    [ensure],
  );

  /** Stops a run that does not end (e.g. an endless loop) by replacing the worker. */
  const reset = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
    for (const resolve of pending.current.values()) resolve({ ok: false, output: "stopped" });
    pending.current.clear();
    setState("idle");
  }, []);

  return { state, run, reset, warm: ensure };
}
