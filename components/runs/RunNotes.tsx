"use client";

import { useState, type FormEvent } from "react";
import { useRunEdit } from "./use-run-edit";
import { useRunSnapshot } from "./snapshot-context";

const small = "rounded-md border border-stone-300 bg-white px-2 py-1 text-xs hover:bg-stone-100 disabled:opacity-50";

/** A researcher's notes on the run, shown as written (line breaks kept) and edited in place. */
export function RunNotes({ manages }: { manages: boolean }) {
  const s = useRunSnapshot();
  const { save, busy, error, clearError } = useRunEdit(s.run.id);
  const [draft, setDraft] = useState<string | null>(null);
  if (!manages) return null;
  if (draft === null)
    return (
      <section className="mb-4 flex items-start gap-2 text-sm" aria-label="Notes">
        {s.run.notes ? (
          <p
            className="max-w-3xl whitespace-pre-wrap rounded-md bg-amber-50 px-3 py-2 text-stone-800 ring-1 ring-amber-200"
            data-testid="run-notes"
          >
            {s.run.notes}
          </p>
        ) : (
          <span className="text-stone-400">No notes.</span>
        )}
        <button type="button" className={small} onClick={() => setDraft(s.run.notes)}>
          {s.run.notes ? "Edit notes" : "Add notes"}
        </button>
      </section>
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save({ notes: draft })) setDraft(null);
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="mb-4 flex max-w-3xl flex-col gap-2 text-sm">
      <textarea
        aria-label="Notes"
        value={draft}
        autoFocus
        rows={4}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={error ? true : undefined}
        className="rounded-md border border-stone-300 px-2 py-1"
      />
      <span className="flex items-center gap-2">
        <button type="submit" className={small} disabled={busy}>
          Save notes
        </button>
        <button
          type="button"
          className={small}
          onClick={() => {
            clearError();
            setDraft(null);
          }}
        >
          Cancel
        </button>
        {error ? (
          <span role="alert" className="text-red-700" data-testid="run-notes-error">
            {error}
          </span>
        ) : null}
      </span>
    </form>
  );
}
