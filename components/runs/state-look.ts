import type { RunStateWord } from "@/lib/runs/run-state";

// How each state word looks where the run page and the runs list show it (the words themselves are
// lib/runs/run-state.ts's).

export const STATE_LOOK: Record<RunStateWord, string> = {
  new: "bg-stone-100 text-stone-700 ring-stone-300",
  running: "bg-sky-50 text-sky-800 ring-sky-200",
  stopping: "bg-amber-50 text-amber-800 ring-amber-200",
  stopped: "bg-amber-50 text-amber-800 ring-amber-200",
  crashed: "bg-red-50 text-red-800 ring-red-200",
  finished: "bg-teal-50 text-teal-800 ring-teal-200",
};
