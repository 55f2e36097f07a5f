"use client";

import { useState, type FormEvent } from "react";
import { useRunEdit } from "./use-run-edit";
import { useRunSnapshot } from "./snapshot-context";

const small = "rounded-md border border-stone-300 bg-white px-2 py-1 text-xs hover:bg-stone-100 disabled:opacity-50";

/** The run's name as the page's heading; researchers rename it in place (Enter saves, Escape cancels). */
export function RunName({ manages }: { manages: boolean }) {
  const s = useRunSnapshot();
  const { save, busy, error, clearError } = useRunEdit(s.run.id);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900" data-testid="run-name">
          {s.run.name}
        </h1>
        {manages ? (
          <button type="button" className={small} onClick={() => setDraft(s.run.name)} aria-label="Rename the run">
            Rename
          </button>
        ) : null}
      </>
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() === s.run.name) return setDraft(null);
    if (await save({ name: draft })) setDraft(null);
  };
  const cancel = () => {
    clearError();
    setDraft(null);
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-center gap-2">
      <input
        aria-label="Run name"
        value={draft}
        autoFocus
        maxLength={200}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => (e.key === "Escape" ? cancel() : undefined)}
        aria-invalid={error ? true : undefined}
        className="w-72 max-w-full rounded-md border border-stone-300 px-2 py-1 text-lg font-semibold"
      />
      <button type="submit" className={small} disabled={busy}>
        Save
      </button>
      <button type="button" className={small} onClick={cancel}>
        Cancel
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700" data-testid="run-name-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}
