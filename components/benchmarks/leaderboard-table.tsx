// One benchmark's Leaderboard as a table of data (lib/table): the common columns, its success rate
// when its reward has one, its reward, and what its views add. The page renders it with
// SortableTable and /api/leaderboard exports it, so both carry the same numbers.

import Link from "next/link";
import type { ReactNode } from "react";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import type { SortableColumn, SortableRow } from "@/components/table/SortableTable";
import { percent } from "@/components/format";
import { benchmarkViews } from "./index";
import type { LeaderboardColumn } from "./views";

type Estimate = { mean: number; low: number; high: number };

const interval = (e: Estimate, format: (value: number) => string = percent) =>
  `${format(e.mean)} [${format(e.low)}, ${format(e.high)}]`;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const slug = (header: string) =>
  header
    .toLowerCase()
    .replace(/\(95% ci\)/, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

const plain = (node: ReactNode): string | null =>
  typeof node === "string" ? node : typeof node === "number" ? String(node) : null;

export function leaderboardTable(
  rows: LeaderboardRow[],
  benchmark: Benchmark,
  baseline?: number,
): { columns: SortableColumn[]; rows: SortableRow[] } {
  const reward = benchmarks[benchmark].reward;
  const { before, after } = benchmarkViews[benchmark].leaderboard;
  const bestOf = rows.some((r) => r.bestOfK);
  const table = { baseline };
  // Columns the page adds to the benchmark's own: each says its text and, for intervals, sorts by the mean.
  const extra: LeaderboardColumn[] = [
    ...before,
    ...(reward.hasSuccess
      ? [
          {
            header: `${reward.name} rate (95% CI)`,
            numeric: true,
            cell: (row: LeaderboardRow) => interval(row.success),
            sort: (row: LeaderboardRow) => row.success.mean,
          },
        ]
      : []),
    {
      header: `${capitalized(reward.measure)} (95% CI)`,
      numeric: true,
      cell: (row) => interval(row.reward, (value) => reward.format(value)),
      sort: (row) => row.reward.mean,
    },
    ...after,
    ...(bestOf
      ? [
          {
            header: `Best-of-k ${reward.hasSuccess ? reward.name.toLowerCase() : reward.measure} (95% CI)`,
            numeric: true,
            testId: "best-of-k",
            cell: (row: LeaderboardRow) =>
              row.bestOfK
                ? `best-of-${row.k}: ${reward.hasSuccess ? interval(row.bestOfK.success) : interval(row.bestOfK.reward, (value) => reward.format(value))}`
                : "–",
            sort: (row: LeaderboardRow) =>
              row.bestOfK ? (reward.hasSuccess ? row.bestOfK.success.mean : row.bestOfK.reward.mean) : null,
          },
        ]
      : []),
  ];
  const ids = extra.map((c) => slug(c.header));
  const columns: SortableColumn[] = [
    { id: "run", header: "Run" },
    { id: "agent", header: "Agent / simulator", className: "font-mono text-xs text-stone-600" },
    { id: "tasks", header: "Tasks", numeric: true },
    ...extra.map((c, i) => ({ id: ids[i]!, header: c.header, numeric: c.numeric, cellTestId: c.testId })),
  ];
  return {
    columns,
    rows: rows.map((row) => {
      const cells: SortableRow["cells"] = {
        run: { text: row.run.name },
        agent: { text: `${row.run.agent ?? "imported"}${row.run.simulator ? ` / ${row.run.simulator}` : ""}` },
        tasks: { text: String(row.tasks), sort: row.tasks },
      };
      const nodes: Record<string, ReactNode> = {
        run: (
          <Link href={`/runs/${row.run.id}`} className="font-medium text-teal-800 hover:underline">
            {row.run.name}
          </Link>
        ),
      };
      const classes: Record<string, string> = {};
      extra.forEach((c, i) => {
        const id = ids[i]!;
        const node = c.cell(row, table);
        const text = c.text?.(row, table) ?? plain(node) ?? "";
        cells[id] = { text, ...(c.sort ? { sort: c.sort(row, table) } : {}) };
        if (plain(node) === null) nodes[id] = node;
        const cls = c.className?.(row);
        if (cls) classes[id] = cls;
      });
      return { key: row.run.id, cells, nodes, classes };
    }),
  };
}
