"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useRunEdit } from "./use-run-edit";
import { useRunSnapshot } from "./snapshot-context";

/**
 * The run's tags, each a link to the runs list filtered by it; researchers add one (Enter) and
 * remove one (its ×). The studio says why a tag is refused.
 */
export function RunTags({ manages }: { manages: boolean }) {
  const s = useRunSnapshot();
  const { save, busy, error } = useRunEdit(s.run.id);
  const [draft, setDraft] = useState("");
  if (!manages && s.run.tags.length === 0) return null;
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const tags = draft.split(/[\s,]+/).filter(Boolean);
    if (tags.length && (await save({ tags: { add: tags } }))) setDraft("");
  };
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" data-testid="run-tags">
      <span className="text-xs uppercase tracking-wide text-stone-500">Tags</span>
      {s.run.tags.map((tag) => (
        <span
          key={tag}
          className="inline-flex items-center rounded-full bg-teal-50 px-2 py-0.5 text-xs text-teal-900 ring-1 ring-teal-200"
          data-testid="run-tag"
        >
          <Link href={`/runs?tag=${encodeURIComponent(tag)}`} className="hover:underline">
            {tag}
          </Link>
          {manages ? (
            <button
              type="button"
              className="ml-1 text-teal-700 hover:text-red-700 disabled:opacity-50"
              aria-label={`Remove tag ${tag}`}
              disabled={busy}
              onClick={() => void save({ tags: { remove: [tag] } })}
            >
              ×
            </button>
          ) : null}
        </span>
      ))}
      {manages ? (
        <form onSubmit={(e) => void add(e)} className="inline-flex items-center gap-1">
          <input
            aria-label="Add a tag"
            placeholder="add a tag"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={error ? true : undefined}
            className="w-32 rounded-md border border-stone-300 px-2 py-0.5 text-xs"
          />
          <button
            type="submit"
            disabled={busy || !draft.trim()}
            className="rounded-md border border-stone-300 bg-white px-2 py-0.5 text-xs hover:bg-stone-100 disabled:opacity-50"
          >
            Add
          </button>
        </form>
      ) : null}
      {error ? (
        <span role="alert" className="text-sm text-red-700" data-testid="run-tags-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
