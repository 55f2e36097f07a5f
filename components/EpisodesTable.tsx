"use client";

import Link from "next/link";
import { DataTable } from "./DataTable";
import { lineStart, reward } from "./format";

export interface EpisodeLine {
  id: number;
  taskId: number;
  problemDescription: string;
  sample: number;
  turns: number;
  reward: number | null;
  status: string;
  failure: string | null;
}

// A client component although nothing in it is interactive: given as React elements from the
// server, 50 rows are ~300 elements in the page's RSC payload (70 KB, a third of the run page's
// main-thread time); given as data, they are 50 small objects, and the HTML is the same.

/** A run's page of episodes: number, task, sample, turns, reward, and why one failed. */
export function EpisodesTable({ rows }: { rows: EpisodeLine[] }) {
  return (
    <DataTable
      testId="episodes-table"
      dense
      rows={rows}
      rowKey={(e) => e.id}
      columns={[
        {
          header: "Episode",
          cell: (e) => (
            <Link href={`/episodes/${e.id}`} className="font-mono text-teal-800 hover:underline">
              #{e.id}
            </Link>
          ),
        },
        {
          header: "Task",
          className: "max-w-md truncate text-stone-700",
          title: (e) => e.problemDescription,
          cell: (e) => (
            <>
              <span className="font-mono text-xs text-stone-400">#{e.taskId}</span> {lineStart(e.problemDescription)}
            </>
          ),
        },
        { header: "Sample", numeric: true, cell: (e) => e.sample },
        { header: "Turns", numeric: true, cell: (e) => e.turns },
        { header: "Reward", numeric: true, cell: (e) => reward(e.reward) },
        {
          header: "Status",
          className: "text-stone-600",
          cell: (e) =>
            e.failure ? (
              <span className="text-red-700" title={e.failure}>
                failed:{" "}
                <span className="text-xs">{e.failure.length > 120 ? `${e.failure.slice(0, 120)}…` : e.failure}</span>
              </span>
            ) : (
              e.status
            ),
        },
      ]}
    />
  );
}
