"use client";

// A queue's instructions above the desk: open on a person's first visit to the queue, folded on
// later ones (this browser remembers), so that the pair's answers stay above the fold.
import { useEffect, useState, type ReactNode } from "react";

export function InstructionsBox({ queueId, children }: { queueId: number; children: ReactNode }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const key = `colbench:instructions-seen:${queueId}`;
    try {
      // This browser's memory exists only after mounting: the server renders the box open.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      if (window.localStorage.getItem(key)) setOpen(false);
      else window.localStorage.setItem(key, "1");
    } catch {
      // No storage: they stay open.
    }
  }, [queueId]);
  return (
    <details
      open={open}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
      className="mb-2 rounded-lg border border-stone-200 bg-white px-3 py-2"
    >
      <summary className="cursor-pointer text-sm font-medium text-stone-600">Instructions</summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}
