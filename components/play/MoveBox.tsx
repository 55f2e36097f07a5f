"use client";

import type { ReactNode } from "react";
import { useDraft } from "./useDraft";

/** A message box whose text survives a reload (kept per episode and seat); Ctrl+Enter (or ⌘+Enter) sends. */
export function MoveBox({
  label,
  draftKey,
  disabled,
  sending,
  error,
  limit,
  maxChars,
  measure = (text) => [...text].length,
  onSend,
  children,
}: {
  label: string;
  /** Where the unsent text is kept in this browser, e.g. "12:agent:message". */
  draftKey: string;
  disabled: boolean;
  sending: boolean;
  error: string | null;
  /** Characters the benchmark keeps of the reply; more is cut. */
  limit?: number;
  /** The most a move may hold, as it will be sent: longer ones are refused. */
  maxChars: number;
  /** The length of the move this text makes (the agent's attaches its code). */
  measure?: (text: string) => number;
  onSend: (text: string) => Promise<boolean>;
  /** More controls beside Send. */
  children?: ReactNode;
}) {
  const draft = useDraft(draftKey, "");
  const text = draft.value;
  const length = measure(text);
  const tooLong = length > maxChars;
  const send = async () => {
    if (!text.trim() || disabled || sending || tooLong) return;
    if (await onSend(text)) draft.clear();
  };
  const over = limit !== undefined && [...text].length > limit;
  return (
    <div className="mt-4 rounded-lg border border-stone-200 bg-white p-3">
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        {label}
        <textarea
          value={text}
          onChange={(e) => draft.set(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void send();
            }
          }}
          rows={4}
          disabled={disabled}
          className="rounded-md border border-stone-300 px-2.5 py-1.5 font-mono text-sm disabled:bg-stone-50"
        />
      </label>
      <p
        className={`mt-1 text-xs ${tooLong ? "text-red-700" : over ? "text-amber-700" : "text-stone-400"}`}
        data-testid="move-length"
      >
        {limit !== undefined
          ? `${[...text].length}/${limit} characters${over ? `: the benchmark keeps only the first ${limit}` : ""}`
          : `${length.toLocaleString("en")}/${maxChars.toLocaleString("en")} characters${text.trim() && length !== [...text].length ? " with your attached work" : ""}`}
        {tooLong ? ` — over the limit of ${maxChars.toLocaleString("en")} characters a move may hold` : ""}
        {draft.restored && text ? " · draft restored" : ""}
      </p>
      {error ? (
        <p className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => void send()}
          disabled={disabled || sending || !text.trim() || tooLong}
          aria-keyshortcuts="Control+Enter"
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {sending ? "Sending…" : "Send"} <span className="text-xs opacity-70">Ctrl+Enter</span>
        </button>
        {children}
      </div>
    </div>
  );
}
