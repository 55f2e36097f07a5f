"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const stacked = "flex flex-col gap-1 text-xs text-stone-600";
const checkbox = "flex items-center gap-2 text-sm text-stone-700";

export type From = "runs" | "pairs" | "candidates";

/** Makes a queue (as `colbench queues create`): where its pairs come from, overlap, gold, members, instructions. */
export function NewQueueForm({ runs, users }: { runs: string[]; users: string[] }) {
  const router = useRouter();
  const [from, setFrom] = useState<From>("runs");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = queueBody(new FormData(event.currentTarget), from);
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/queues", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const reply = (await response.json().catch(() => ({}))) as { error?: string };
      if (!response.ok) return setError(reply.error ?? `HTTP ${response.status}`);
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="mb-6 rounded-lg border border-stone-200 bg-white p-4">
      <summary className="cursor-pointer text-sm font-medium text-teal-800">New queue</summary>
      <form onSubmit={(event) => void submit(event)} className="mt-3 grid gap-3 sm:grid-cols-3" data-testid="new-queue">
        <label className={stacked}>
          Name
          <input name="name" required className={field} />
        </label>
        <label className={stacked}>
          Pairs from
          <select value={from} onChange={(e) => setFrom(e.target.value as From)} className={field}>
            <option value="runs">two runs on the same tasks (A against B)</option>
            <option value="pairs">a run&apos;s SWEET-RL pairs</option>
            <option value="candidates">a run&apos;s critic-ranked candidates (best against worst)</option>
          </select>
        </label>
        <SourceFields from={from} runs={runs} />
        <SizeFields users={users} />
        <LabelFields />
        <button
          type="submit"
          disabled={busy || !runs.length}
          className="rounded-md bg-teal-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
        >
          Make the queue
        </button>
        {error ? (
          <p role="alert" className="text-sm text-red-700 sm:col-span-3">
            {error}
          </p>
        ) : null}
      </form>
    </details>
  );
}

/** The form's fields as POST /api/queues reads them. */
function queueBody(f: FormData, from: From) {
  const text = (k: string) => {
    const value = f.get(k);
    return typeof value === "string" ? value : "";
  };
  return {
    name: text("name"),
    source: sourceOf(f, from),
    overlap: Number(text("overlap")),
    gold: Number(text("gold") || 0),
    goldRate: text("goldRate") ? Number(text("goldRate")) : undefined,
    showsHidden: f.get("showsHidden") === "on",
    hidesScores: f.get("hidesScores") === "on",
    trainingMode: f.get("trainingMode") === "on",
    labelSchema: {
      graded: f.get("graded") === "on",
      criteria: text("criteria")
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
      reasonsFor: f.getAll("reasonsFor").map(String),
    },
    members: f.getAll("members").map(String),
    instructions: text("instructions"),
  };
}

/** Where the pairs come from, as the form's SourceFields hold it (POST /api/queues and /api/queues/ID/pairs). */
export function sourceOf(f: FormData, from: From) {
  const text = (k: string) => {
    const value = f.get(k);
    return typeof value === "string" ? value : "";
  };
  return from === "runs"
    ? { from, a: text("a"), b: text("b") }
    : from === "pairs"
      ? { from, run: text("run"), kind: text("kind") }
      : { from, run: text("run") };
}

/** Which runs the pairs come from: two runs to compare, or one run (and, for SWEET-RL pairs, their kind). */
export function SourceFields({
  from,
  runs,
  kind,
}: {
  from: From;
  runs: string[];
  /** The pairs' kind when it is fixed (more pairs for a queue of that kind). */
  kind?: "trajectory" | "turn";
}) {
  if (from === "runs") {
    return (
      <div className="flex gap-2">
        <RunSelect name="a" label="Run A" runs={runs} />
        {/* B starts on the second run: a run against itself makes no pair worth labelling. */}
        <RunSelect name="b" label="Run B" runs={runs} initial={runs[1]} />
      </div>
    );
  }
  return (
    <div className="flex gap-2">
      <RunSelect name="run" label="Run" runs={runs} />
      {from === "pairs" && kind ? <input type="hidden" name="kind" value={kind} /> : null}
      {from === "pairs" && !kind ? (
        <label className={stacked}>
          Kind
          <select name="kind" className={field}>
            <option value="trajectory">trajectory pairs</option>
            <option value="turn">turn pairs</option>
          </select>
        </label>
      ) : null}
    </div>
  );
}

function RunSelect({ name, label, runs, initial }: { name: string; label: string; runs: string[]; initial?: string }) {
  return (
    <label className={stacked}>
      {label}
      <select name={name} className={field} required defaultValue={initial}>
        {runs.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
    </label>
  );
}

/** How much labelling the queue asks for and from whom: overlap, gold pairs, members, instructions. */
function SizeFields({ users }: { users: string[] }) {
  return (
    <>
      <label className={stacked}>
        Labels per pair (overlap)
        <input name="overlap" type="number" min={1} max={20} defaultValue={2} className={field} />
      </label>
      <label className={stacked}>
        Gold pairs (trajectory pairs with rewards ≥ 0.5 apart)
        <input name="gold" type="number" min={0} defaultValue={0} className={field} />
      </label>
      <label className={stacked}>
        Gold rate (share of pairs)
        <input name="goldRate" type="number" min={0} max={1} step={0.05} placeholder="0.1" className={field} />
      </label>
      <label className={stacked}>
        Members
        <select name="members" multiple className={`${field} h-24`}>
          {users.map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
      </label>
      <label className={`${stacked} sm:col-span-2`}>
        Instructions (Markdown)
        <textarea
          name="instructions"
          rows={4}
          className={field}
          placeholder="Which answer would you rather get? Judge the final code first, then how it got there."
        />
      </label>
    </>
  );
}

/** What members see and what a label holds: hidden information, scores, grades, criteria, required reasons. */
function LabelFields() {
  return (
    <>
      <label className={checkbox}>
        <input type="checkbox" name="showsHidden" /> Members see hidden information (reference, tests, target page)
      </label>
      <label className={checkbox}>
        <input type="checkbox" name="hidesScores" /> Hide automatic scores (per-test pass/fail, reward, similarity)
      </label>
      <label className={checkbox}>
        <input type="checkbox" name="trainingMode" /> Training: after a gold pair, show whether the label matched and
        why
      </label>
      <label className={checkbox}>
        <input type="checkbox" name="graded" /> Graded: A or B much / slightly better
      </label>
      <label className="flex flex-col gap-1 text-sm text-stone-700">
        Criteria (optional, comma-separated)
        <input
          name="criteria"
          placeholder="correctness, clarity"
          className="rounded-md border border-stone-300 px-2 py-1"
        />
      </label>
      <fieldset className="flex flex-wrap items-center gap-3 text-sm text-stone-700">
        <legend className="mb-1">A reason is required for</legend>
        {(["tie", "both_bad", "slightly", "much"] as const).map((r) => (
          <label key={r} className="flex items-center gap-1">
            <input type="checkbox" name="reasonsFor" value={r} /> {r.replace("_", " ")}
          </label>
        ))}
      </fieldset>
    </>
  );
}
