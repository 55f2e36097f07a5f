import type { ReactNode } from "react";

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers line up on the right. */
  numeric?: boolean;
  className?: string;
  title?: (row: Row) => string;
}

/** The studio's one table: a header row, one row per item, hover highlight; `dense` for long lists. */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  testId,
  dense = false,
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  testId?: string;
  dense?: boolean;
}) {
  const pad = dense ? "px-3 py-1.5" : "px-3 py-2";
  // A table wider than the screen scrolls inside its own box instead of widening the page.
  return (
    <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={`px-3 py-2 ${column.numeric ? "text-right" : ""}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="hover:bg-stone-50">
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`${pad} ${column.numeric ? "text-right tabular-nums" : ""} ${column.className ?? ""}`}
                  title={column.title?.(row)}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
