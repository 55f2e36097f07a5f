"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import type { TaskComparison } from "@/lib/store/leaderboard";
import { VirtualRows } from "./VirtualRows";

type Filter = "all" | "a" | "b" | "tie";

const cell = "truncate px-3 py-1.5";

function outcome(t: TaskComparison): Filter | null {
  if (t.a === null || t.b === null) return null;
  return t.a > t.b ? "a" : t.b > t.a ? "b" : "tie";
}

/** Task by task: each run's reward and who won, filterable by outcome. */
export function CompareTable({
  tasks,
  aName,
  bName,
  replays = false,
}: {
  tasks: TaskComparison[];
  aName: string;
  bName: string;
  replays?: boolean;
}) {
  const [filter, setFilter] = useState<Filter>("all");
  const shown = useMemo(() => (filter === "all" ? tasks : tasks.filter((t) => outcome(t) === filter)), [tasks, filter]);
  const score = (x: number | null, episode: number | null, run: string) =>
    x === null ? (
      "–"
    ) : episode === null || !replays ? (
      x.toFixed(3)
    ) : (
      <Link
        href={`/episodes/${episode}`}
        className="text-teal-800 hover:underline"
        title={`${run}'s episode on this task`}
      >
        {x.toFixed(3)}
      </Link>
    );
  return (
    <>
      <nav aria-label="Filter tasks by outcome" className="mb-3 flex flex-wrap gap-2 text-sm">
        {(
          [
            ["all", `all (${tasks.length})`],
            ["a", `${aName} better`],
            ["b", `${bName} better`],
            ["tie", "tied"],
          ] as const
        ).map(([value, text]) => (
          <button
            key={value}
            type="button"
            onClick={() => setFilter(value)}
            aria-pressed={filter === value}
            className={`rounded-md px-3 py-1 ${filter === value ? "bg-teal-700 text-white" : "bg-white ring-1 ring-stone-200"}`}
          >
            {text}
          </button>
        ))}
      </nav>
      <VirtualRows
        label="Tasks compared"
        items={shown}
        columns="5rem 1fr 6rem 6rem 7rem"
        header={
          <>
            <span role="columnheader" className={cell}>
              Task
            </span>
            <span role="columnheader" className={cell}>
              Description
            </span>
            <span role="columnheader" className={`${cell} text-right`}>
              A
            </span>
            <span role="columnheader" className={`${cell} text-right`}>
              B
            </span>
            <span role="columnheader" className={cell}>
              Better
            </span>
          </>
        }
        render={(t) => {
          const o = outcome(t);
          return (
            <>
              <span role="cell" className={`${cell} font-mono`}>
                <Link href={`/tasks/${t.taskId}`} className="text-teal-800 hover:underline">
                  #{t.taskId}
                </Link>
              </span>
              <span role="cell" className={`${cell} text-stone-700`} title={t.problemDescription}>
                {t.problemDescription}
              </span>
              <span role="cell" className={`${cell} text-right tabular-nums`}>
                {score(t.a, t.aEpisode, aName)}
              </span>
              <span role="cell" className={`${cell} text-right tabular-nums`}>
                {score(t.b, t.bEpisode, bName)}
              </span>
              <span
                role="cell"
                className={`${cell} ${o === "a" ? "text-emerald-700" : o === "b" ? "text-rose-700" : "text-stone-500"}`}
              >
                {o === null ? "only one" : o === "tie" ? "tie" : o.toUpperCase()}
              </span>
            </>
          );
        }}
      />
    </>
  );
}
