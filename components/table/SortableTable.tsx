"use client";

// The studio's table a researcher can work with: click a header to sort by it (aria-sort says how),
// type in the filter box, and download what is shown as CSV or JSON. Rows come as data
// (lib/table/table.ts), so the page, its downloads and the export routes show the same numbers.
// Sorting is done here for a table that holds all its rows; a paged table passes `serverSort` and its
// headers go to the page's address with `sort`/`dir`, for the store's query to order. They are
// buttons, not links: a row's first link stays its own (the run page's episode), as pages and tests
// that open "the first link in the table" expect.

import { useMemo, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
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

interface SortableTableProps {
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
}: SortableTableProps) {
  const [clientOrder, setClientOrder] = useState<SortOrder | null>(initialOrder);
  const [filter, setFilter] = useState("");
  const order = serverSort ? serverSort.order : clientOrder;
  const shown = useMemo(() => {
    const kept = filterRows(rows, filter);
    return serverSort ? kept : sortRows(kept, clientOrder);
  }, [rows, filter, serverSort, clientOrder]);
  const pad = dense ? "px-3 py-1.5" : "px-3 py-2";

  return (
    <div data-testid={testId ? `${testId}-box` : undefined}>
      <Toolbar
        filter={filter}
        setFilter={setFilter}
        paged={Boolean(serverSort)}
        count={filter ? `${shown.length} of ${rows.length} shown` : caption}
        countTestId={testId ? `${testId}-count` : undefined}
        exportHrefs={exportHrefs}
        save={(format) => download(tableExport(columns, shown, format, name))}
      />
      {/* A table wider than the screen scrolls inside its own box instead of widening the page. */}
      <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
        <table className="w-full text-sm" data-testid={testId}>
          <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
            <tr>
              {columns.map((column) => (
                <HeaderCell
                  key={column.id}
                  column={column}
                  order={order}
                  href={serverSort ? sortHref(serverSort.base, nextOrder(order, column)) : null}
                  onSort={() => setClientOrder(nextOrder(clientOrder, column))}
                />
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {shown.map((row) => (
              <tr key={row.key} className="hover:bg-stone-50">
                {columns.map((column) => (
                  <BodyCell key={column.id} column={column} row={row} pad={pad} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The filter box, how many rows it keeps, and the downloads: the export routes' whole table while
 * nothing is filtered and they exist, otherwise the rows shown, saved from the page.
 */
function Toolbar({
  filter,
  setFilter,
  paged,
  count,
  countTestId,
  exportHrefs,
  save,
}: {
  filter: string;
  setFilter: (filter: string) => void;
  /** Whether the rows are one page of many (the filter then keeps rows of this page only). */
  paged: boolean;
  count: ReactNode;
  countTestId: string | undefined;
  exportHrefs: Record<ExportFormat, string> | undefined;
  save: (format: ExportFormat) => void;
}) {
  const button = "rounded-md bg-white px-2 py-1 text-xs text-stone-700 ring-1 ring-stone-300 hover:bg-stone-100";
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
      <input
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        placeholder={paged ? "Filter this page" : "Filter rows"}
        aria-label={paged ? "Filter this page's rows" : "Filter rows"}
        className="w-48 min-w-0 rounded-md border border-stone-300 bg-white px-2 py-1 text-sm"
      />
      <span className="text-xs text-stone-500" aria-live="polite" data-testid={countTestId}>
        {count}
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
  );
}

/**
 * A column's header: plain when unsortable, else a button that goes to the sorted page (`href`, a
 * paged table) or sorts the rows held here (`onSort`). aria-sort and the arrow say the current order.
 */
function HeaderCell({
  column,
  order,
  href,
  onSort,
}: {
  column: SortableColumn;
  order: SortOrder | null;
  href: string | null;
  onSort: () => void;
}) {
  const router = useRouter();
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
      scope="col"
      aria-sort={column.unsortable ? undefined : sorted ? ARIA[sorted] : "none"}
      className={`px-3 py-2 ${column.numeric ? "text-right" : ""}`}
    >
      {column.unsortable ? (
        column.header
      ) : href !== null ? (
        <button type="button" onClick={() => router.push(href)} className={`${link} text-left`} data-href={href}>
          {label}
        </button>
      ) : (
        <button type="button" onClick={onSort} className={`${link} text-left`}>
          {label}
        </button>
      )}
    </th>
  );
}

/** One cell: the row's node for the column when it has one, else the cell's text. */
function BodyCell({ column, row, pad }: { column: SortableColumn; row: SortableRow; pad: string }) {
  return (
    <td
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
  );
}
