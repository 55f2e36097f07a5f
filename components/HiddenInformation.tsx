"use client";

import { useState } from "react";
import type { Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import type { RevealedHidden as Hidden } from "@/components/benchmarks/views";

type State =
  { kind: "hidden" } | { kind: "loading" } | { kind: "error"; message: string } | { kind: "shown"; hidden: Hidden };

/** Ground truth, tests and target stay off the page until a person asks for them. */
export function HiddenInformation({ taskId, benchmark }: { taskId: number; benchmark: Benchmark }) {
  const [state, setState] = useState<State>({ kind: "hidden" });
  const { Hidden: Revealed } = benchmarkViews[benchmark];

  async function toggle() {
    if (state.kind === "shown") return setState({ kind: "hidden" });
    setState({ kind: "loading" });
    try {
      const response = await fetch(`/api/tasks/${taskId}/hidden`);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      setState({ kind: "shown", hidden: (await response.json()) as Hidden });
    } catch (error) {
      setState({ kind: "error", message: (error as Error).message });
    }
  }

  return (
    <section aria-labelledby="hidden-heading" className="mt-6">
      <div className="flex items-center justify-between">
        <h2 id="hidden-heading" className="text-sm font-medium text-stone-500">
          Hidden information (simulator and reviewers only)
        </h2>
        <button
          type="button"
          onClick={() => void toggle()}
          aria-expanded={state.kind === "shown"}
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-900 hover:bg-amber-100"
        >
          {state.kind === "shown"
            ? "Hide hidden information"
            : state.kind === "loading"
              ? "Loading…"
              : "Reveal hidden information"}
        </button>
      </div>
      {state.kind === "error" ? <p className="mt-2 text-sm text-red-700">Could not load it: {state.message}</p> : null}
      {state.kind === "shown" ? <Revealed taskId={taskId} hidden={state.hidden} /> : null}
    </section>
  );
}
