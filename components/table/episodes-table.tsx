// A run's episodes as a table of data (lib/table): what its page shows, what
// /api/runs/ID/episodes?format=csv|json exports. Ordering is the store's (`sort`/`dir`), since the
// episodes are paged.

import Link from "next/link";
import type { EpisodeRow, EpisodeSort } from "@/lib/store/runs";
import { reward } from "@/components/format";
import type { SortableColumn, SortableRow } from "./SortableTable";

// The ids are lib/store/runs.ts's EPISODE_SORTS, so a header's link asks the store for its own order.
export const EPISODE_COLUMNS: Array<SortableColumn & { id: EpisodeSort | "failure" }> = [
  { id: "id", header: "Episode" },
  { id: "task", header: "Task", className: "max-w-md truncate text-stone-700" },
  { id: "sample", header: "Sample", numeric: true },
  { id: "turns", header: "Turns", numeric: true },
  { id: "reward", header: "Reward", numeric: true },
  { id: "status", header: "Status", className: "text-stone-600" },
  { id: "failure", header: "Why it failed", unsortable: true, className: "max-w-xs truncate text-xs text-red-700" },
];

export function episodeRows(rows: EpisodeRow[]): SortableRow[] {
  return rows.map((e) => ({
    key: e.id,
    cells: {
      id: { text: `#${e.id}`, sort: e.id },
      task: { text: `#${e.taskId} ${e.problemDescription}`, sort: e.taskId },
      sample: { text: String(e.sample), sort: e.sample },
      turns: { text: String(e.turns), sort: e.turns },
      reward: { text: reward(e.reward), sort: e.reward },
      status: { text: e.status },
      failure: { text: e.failure ?? "" },
    },
    nodes: {
      id: (
        <Link href={`/episodes/${e.id}`} className="font-mono text-teal-800 hover:underline">
          #{e.id}
        </Link>
      ),
      task: (
        <>
          <span className="font-mono text-xs text-stone-400">#{e.taskId}</span>{" "}
          {e.problemDescription.length > 160 ? `${e.problemDescription.slice(0, 160)}…` : e.problemDescription}
        </>
      ),
    },
    titles: { task: e.problemDescription, ...(e.failure ? { failure: e.failure } : {}) },
  }));
}
