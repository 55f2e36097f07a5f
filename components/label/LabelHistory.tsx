// "My labels": what this person answered at this queue, latest first; any can be reopened and
// changed (a new version; the earlier one is kept).
import { describeAnswer } from "@/lib/label/schema";
import type { HistoryEntry } from "./desk-api";

export function LabelHistory({
  entries,
  onReopen,
  reopenedId,
}: {
  entries: HistoryEntry[] | null;
  onReopen: (itemId: number) => void;
  reopenedId: number | null;
}) {
  return (
    <section
      className="mb-3 max-h-64 overflow-auto rounded-lg border border-stone-200 bg-white p-3 text-sm"
      data-testid="label-history"
      aria-label="My labels"
    >
      <h2 className="mb-2 font-medium text-stone-700">My labels ({entries?.length ?? "…"})</h2>
      {entries === null ? <p className="text-stone-500">Loading…</p> : null}
      {entries?.length === 0 ? <p className="text-stone-500">None yet.</p> : null}
      <ol className="divide-y divide-stone-100">
        {entries?.map((e) => (
          <li key={e.itemId} className="flex items-center gap-3 py-1" data-testid="history-entry" data-item={e.itemId}>
            <span className="w-20 font-mono text-xs text-stone-500">pair {e.itemId}</span>
            <span className="w-40 font-medium text-stone-800">
              {describeAnswer({ side: e.side, strength: e.strength })}
            </span>
            <span className="min-w-0 flex-1 truncate text-stone-500">{e.comment ?? ""}</span>
            {e.version > 1 ? <span className="text-xs text-stone-500">version {e.version}</span> : null}
            <time className="text-xs text-stone-400" dateTime={e.createdAt}>
              {new Date(e.createdAt).toLocaleTimeString()}
            </time>
            <button
              type="button"
              className="rounded border border-stone-300 px-2 py-0.5 text-xs hover:bg-stone-50 disabled:opacity-50"
              disabled={reopenedId === e.itemId}
              onClick={() => onReopen(e.itemId)}
            >
              Reopen
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
