"use client";

// The studio's table a researcher can work with: click a header to sort by it (aria-sort says how),
// type in the filter box, and download what is shown as CSV or JSON. Rows come as data
// (lib/table/table.ts), so the page, its downloads and the export routes show the same numbers.
// Sorting is done here for a table that holds all its rows; a paged table passes `serverSort` and its
// headers become links to the page's address with `sort`/`dir`, for the store's query to order.

import { useMemo, useState, type ReactNode } from "react";
import Link from "next/link";
import {
  filterRows,
  nextOrder,
  sortHref,
  sortRows,
  tableExport,
  type ExportFormat,
  type SortOrder,
  type TableColumn,
  type TableRow,
} from "@/lib/table/table";

export interface SortableColumn extends TableColumn {
  /** Classes of the column's cells (beside the padding). */
  className?: string;
  /** The cells' test id. */
  cellTestId?: string;
}

export interface SortableRow extends TableRow {
  /** What a cell shows when it is more than its text (a link, a badge); the text is used otherwise. */
  nodes?: Record<string, ReactNode>;
  /** A cell's own classes (a warning colour). */
  classes?: Record<string, string>;
  /** A cell's tooltip. */
  titles?: Record<string, string>;
}

const ARIA = { asc: "ascending", desc: "descending" } as const;

function download(file: { body: string; type: string; filename: string }) {
  const url = URL.createObjectURL(new Blob([file.body], { type: file.type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SortableTable({
  columns,
  rows,
  name,
  testId,
  dense = false,
  initialOrder = null,
  serverSort,
  exportHrefs,
  caption,
}: {
  columns: SortableColumn[];
  rows: SortableRow[];
  /** The downloads' file name, without extension. */
  name: string;
  testId?: string;
  dense?: boolean;
  /** The order rows come in, when it is a column's (client sorting starts from it). */
  initialOrder?: SortOrder | null;
  /** A paged table: the order the store's query used, and the page's address to add `sort`/`dir` to. */
  serverSort?: { order: SortOrder | null; base: string };
  /** Where the whole table (every page) downloads from; without them the buttons save the rows shown. */
  exportHrefs?: Record<ExportFormat, string>;
  /** Words beside the filter box ("12 runs"). */
  caption?: ReactNode;
}) {
  const [clientOrder, setClientOrder] = useState<SortOrder | null>(initialOrder);
  const [filter, setFilter] = useState("");
  const order = serverSort ? serverSort.order : clientOrder;
  const shown = useMemo(() => {
    const kept = filterRows(rows, filter);
    return serverSort ? kept : sortRows(kept, clientOrder);
  }, [rows, filter, serverSort, clientOrder]);
  const pad = dense ? "px-3 py-1.5" : "px-3 py-2";
  const save = (format: ExportFormat) => download(tableExport(columns, shown, format, name));
  const button = "rounded-md bg-white px-2 py-1 text-xs text-stone-700 ring-1 ring-stone-300 hover:bg-stone-100";

  return (
    <div data-testid={testId ? `${testId}-box` : undefined}>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={serverSort ? "Filter this page" : "Filter rows"}
          aria-label={serverSort ? "Filter this page's rows" : "Filter rows"}
          className="w-48 min-w-0 rounded-md border border-stone-300 bg-white px-2 py-1 text-sm"
        />
        <span
          className="text-xs text-stone-500"
          aria-live="polite"
          data-testid={testId ? `${testId}-count` : undefined}
        >
          {filter ? `${shown.length} of ${rows.length} shown` : caption}
        </span>
        <span className="ml-auto flex gap-2">
          {(["csv", "json"] as const).map((format) =>
            exportHrefs && !filter ? (
              <a key={format} href={exportHrefs[format]} className={button} download>
                Export {format.toUpperCase()}
              </a>
            ) : (
              <button key={format} type="button" onClick={() => save(format)} className={button}>
                Export {format.toUpperCase()}
              </button>
            ),
          )}
        </span>
      </div>
      {/* A table wider than the screen scrolls inside its own box instead of widening the page. */}
      <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
        <table className="w-full text-sm" data-testid={testId}>
          <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
            <tr>
              {columns.map((column) => {
                const sorted = order?.column === column.id ? order.dir : null;
                const mark = sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : "";
                const label = (
                  <>
                    {column.header}
                    <span aria-hidden="true">{mark}</span>
                  </>
                );
                const link = "uppercase tracking-wide hover:text-stone-900 hover:underline";
                return (
                  <th
                    key={column.id}
                    scope="col"
                    aria-sort={column.unsortable ? undefined : sorted ? ARIA[sorted] : "none"}
                    className={`px-3 py-2 ${column.numeric ? "text-right" : ""}`}
                  >
                    {column.unsortable ? (
                      column.header
                    ) : serverSort ? (
                      <Link href={sortHref(serverSort.base, nextOrder(order, column))} className={link}>
                        {label}
                      </Link>
                    ) : (
                      <button
                        type="button"
                        onClick={() => setClientOrder(nextOrder(clientOrder, column))}
                        className={`${link} text-left`}
                      >
                        {label}
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {shown.map((row) => (
              <tr key={row.key} className="hover:bg-stone-50">
                {columns.map((column) => (
                  <td
                    key={column.id}
                    className={[
                      pad,
                      column.numeric ? "text-right tabular-nums" : "",
                      column.className ?? "",
                      row.classes?.[column.id] ?? "",
                    ]
                      .filter(Boolean)
                      .join(" ")}
                    title={row.titles?.[column.id]}
                    data-column={column.id}
                    data-testid={column.cellTestId}
                  >
                    {row.nodes?.[column.id] ?? row.cells[column.id]?.text ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
