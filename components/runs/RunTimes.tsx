"use client";

import { useNow, useRunSnapshot } from "./snapshot-context";

// When the run was made, started and ended, and how long it took: rows of "What was run", from the
// snapshot, with Duration ticking on the client while the run has not ended.

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;

export function RunTimes() {
  const s = useRunSnapshot();
  const { startedAt, endedAt } = s.span;
  const now = useNow(s.at, startedAt !== null && endedAt === null);
  const rows: Array<[string, string]> = [
    ["Created", when(s.run.createdAt)],
    ["Started", startedAt ? when(startedAt) : "not yet"],
    ["Ended", endedAt ? when(endedAt) : startedAt ? "not yet" : "–"],
  ];
  if (startedAt) rows.push(["Duration", `${duration((endedAt ?? now) - startedAt)}${endedAt ? "" : " so far"}`]);
  return rows.map(([label, value]) => (
    <div key={label} className="contents">
      <dt className="text-stone-500">{label}</dt>
      <dd className="mb-1 min-w-0 break-words text-stone-800 sm:mb-0" data-testid={`run-${label.toLowerCase()}`}>
        {value}
      </dd>
    </div>
  ));
}
