"use client";

import { useState } from "react";
import { SourceFields, sourceOf, type From } from "../NewQueueForm";
import { CallStatus } from "./CallStatus";
import { field, heading, panel, primary } from "./panel";
import { useQueueCall } from "./useQueueCall";

/** The sources that make pairs of a queue's kind: runs and trajectory pairs, or turn pairs and candidates. */
const SOURCES: Record<"trajectory" | "turn", Array<[From, string]>> = {
  trajectory: [
    ["runs", "two runs on the same tasks (A against B)"],
    ["pairs", "a run's SWEET-RL trajectory pairs"],
  ],
  turn: [
    ["pairs", "a run's SWEET-RL turn pairs"],
    ["candidates", "a run's critic-ranked candidates (best against worst)"],
  ],
};

/** More pairs for the queue from a run (as `colbench queues add-pairs`): pairs it holds already are left out. */
export function AddPairsForm({
  queueId,
  kind,
  runs,
}: {
  queueId: number;
  kind: "trajectory" | "turn";
  runs: string[];
}) {
  const { call, busy, error, done } = useQueueCall(queueId);
  const [from, setFrom] = useState<From>(SOURCES[kind][0]![0]);
  return (
    <section className={panel} data-testid="add-pairs">
      <h2 className={heading}>Add pairs</h2>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const limit = Number(f.get("limit") || 0);
          const gold = Number(f.get("gold") || 0);
          void call<{ added: number; gold: number; already: number }>(
            "POST",
            "/pairs",
            { source: sourceOf(f, from), ...(limit ? { limit } : {}), ...(gold ? { gold } : {}) },
            (r) =>
              `${r.added} pairs added${r.gold ? ` (${r.gold} gold)` : ""}${r.already ? `; ${r.already} were in the queue already` : ""}.`,
          );
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-stone-600">
          Pairs from
          <select value={from} onChange={(e) => setFrom(e.target.value as From)} className={field}>
            {SOURCES[kind].map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <SourceFields from={from} runs={runs} kind={kind} />
        <label className="flex flex-col gap-1 text-xs text-stone-600">
          At most
          <input name="limit" type="number" min={1} placeholder="all" className={`${field} w-24`} />
        </label>
        {kind === "trajectory" ? (
          <label className="flex flex-col gap-1 text-xs text-stone-600">
            Gold among them
            <input name="gold" type="number" min={0} defaultValue={0} className={`${field} w-24`} />
          </label>
        ) : null}
        <button type="submit" className={primary} disabled={busy || !runs.length}>
          Add pairs
        </button>
      </form>
      <CallStatus error={error} done={done} testId="pairs" />
    </section>
  );
}
