// A table as data: the columns, and each row's cells as the text the page shows plus the value it
// sorts by. The page (components/table/SortableTable.tsx), its exports and the export routes all read
// the same cells, so a CSV or JSON file carries exactly the numbers the page shows.

import { toCsv } from "./csv";

export interface TableColumn {
  /** Stable key: the `sort` search parameter, the JSON field's key. */
  id: string;
  header: string;
  /** Numbers line up on the right and sort as numbers. */
  numeric?: boolean;
  /** Not offered for sorting (a column of actions). */
  unsortable?: boolean;
}

export interface TableCell {
  /** What the page shows, and what the CSV and JSON carry. */
  text: string;
  /** What the column sorts by when that is not the text (a mean under an interval, a date). null sorts last. */
  sort?: number | string | null;
}

export interface TableRow {
  key: string | number;
  cells: Record<string, TableCell>;
}

export type SortDir = "asc" | "desc";

export interface SortOrder {
  column: string;
  dir: SortDir;
}

export type ExportFormat = "csv" | "json";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["csv", "json"];

function sortKey(cell: TableCell | undefined): number | string | null {
  if (!cell) return null;
  if (cell.sort !== undefined) return cell.sort;
  return cell.text === "" || cell.text === "–" ? null : cell.text;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** The rows in the column's order; empty cells last either way, ties kept in their order (a stable sort). */
export function sortRows<R extends TableRow>(rows: readonly R[], order: SortOrder | null): R[] {
  if (!order) return [...rows];
  const sign = order.dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortKey(a.cells[order.column]);
    const y = sortKey(b.cells[order.column]);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    return sign * collator.compare(String(x), String(y));
  });
}

/** Rows with every word of the filter somewhere in their cells' text (case-insensitive). */
export function filterRows<R extends TableRow>(rows: readonly R[], filter: string): R[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = Object.values(row.cells)
      .map((c) => c.text.toLowerCase())
      .join("\n");
    return words.every((w) => text.includes(w));
  });
}

/** The table as CSV: the headers, then one record per row of the shown text. */
export function tableCsv(columns: readonly TableColumn[], rows: readonly TableRow[]): string {
  return toCsv([columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => r.cells[c.id]?.text ?? ""))]);
}

/** The table as JSON: one object per row, keyed by column id, of the shown text. */
export function tableJson(columns: readonly TableColumn[], rows: readonly TableRow[]): string {
  const objects = rows.map((r) => Object.fromEntries(columns.map((c) => [c.id, r.cells[c.id]?.text ?? ""])));
  return JSON.stringify({ columns: columns.map((c) => ({ id: c.id, header: c.header })), rows: objects }, null, 2);
}

/** What an export route answers (and what the page's buttons download): the body, its type and a file name. */
export function tableExport(
  columns: readonly TableColumn[],
  rows: readonly TableRow[],
  format: ExportFormat,
  name: string,
): { body: string; type: string; filename: string } {
  const base = name.replace(/[^\w.-]+/g, "_") || "table";
  return format === "csv"
    ? { body: tableCsv(columns, rows), type: "text/csv; charset=utf-8", filename: `${base}.csv` }
    : { body: tableJson(columns, rows), type: "application/json; charset=utf-8", filename: `${base}.json` };
}

/** An export as a route's Response (downloaded, named). */
export function exportResponse(file: { body: string; type: string; filename: string }): Response {
  return new Response(file.body, {
    headers: { "Content-Type": file.type, "Content-Disposition": `attachment; filename="${file.filename}"` },
  });
}

/**
 * `sort` and `dir` from a page's address, held to the columns it may sort by: an unknown column or
 * direction falls back to the default rather than failing the page (an old link, a typed URL).
 */
export function parseSort(
  params: { sort?: string | string[]; dir?: string | string[] },
  allowed: readonly string[],
  fallback: SortOrder | null = null,
): SortOrder | null {
  const column = typeof params.sort === "string" ? params.sort : undefined;
  if (!column || !allowed.includes(column)) return fallback;
  const dir = params.dir === "desc" ? "desc" : params.dir === "asc" ? "asc" : "asc";
  return { column, dir };
}

/** The order a click on a column's header asks for: numbers highest first, text A to Z, then flipped. */
export function nextOrder(current: SortOrder | null, column: TableColumn): SortOrder {
  if (current?.column === column.id) return { column: column.id, dir: current.dir === "asc" ? "desc" : "asc" };
  return { column: column.id, dir: column.numeric ? "desc" : "asc" };
}

/** A page's address with another order (and back to its first page, where the rows are paged). */
export function sortHref(base: string, order: SortOrder): string {
  const [path, search = ""] = base.split("?");
  const params = new URLSearchParams(search);
  params.set("sort", order.column);
  params.set("dir", order.dir);
  params.delete("page");
  return `${path}?${params.toString()}`;
}
