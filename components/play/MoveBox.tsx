"use client";

import { useState, type ReactNode } from "react";

/** A message box: Ctrl+Enter (or ⌘+Enter) sends. */
export function MoveBox({
  label,
  disabled,
  sending,
  error,
  limit,
  onSend,
  children,
}: {
  label: string;
  disabled: boolean;
  sending: boolean;
  error: string | null;
  /** Characters the benchmark keeps of the reply; more is cut. */
  limit?: number;
  onSend: (text: string) => Promise<boolean>;
  /** More controls beside Send. */
  children?: ReactNode;
}) {
  const [text, setText] = useState("");
  const clear = () => setText("");
  const send = async () => {
    if (!text.trim() || disabled || sending) return;
    if (await onSend(text)) clear();
  };
  const over = limit !== undefined && [...text].length > limit;
  return (
    <div className="mt-4 rounded-lg border border-stone-200 bg-white p-3">
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        {label}
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
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
      {limit !== undefined ? (
        <p className={`mt-1 text-xs ${over ? "text-amber-700" : "text-stone-400"}`}>
          {[...text].length}/{limit} characters{over ? ": the benchmark keeps only the first " + limit : ""}
        </p>
      ) : null}
      {error ? <p className="mt-1 text-sm text-red-700" role="alert">{error}</p> : null}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button type="button" onClick={() => void send()} disabled={disabled || sending || !text.trim()} aria-keyshortcuts="Control+Enter" className="rounded-md bg-teal-700 px-3 py-1.5 text-sm text-white hover:bg-teal-800 disabled:opacity-50">
          {sending ? "Sending…" : "Send"} <span className="text-xs opacity-70">Ctrl+Enter</span>
        </button>
        {children}
      </div>
    </div>
  );
}
