// CSV as RFC 4180 writes it: CRLF between records, a field quoted when it holds a comma, a double
// quote, CR or LF (its quotes doubled), everything else as is. Spreadsheets open it; pandas reads it.

export type CsvValue = string | number | boolean | null | undefined;

function field(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record per array; the first is usually the header. Ends with CRLF, as the RFC allows. */
export function toCsv(records: readonly (readonly CsvValue[])[]): string {
  return records.map((record) => record.map(field).join(",") + "\r\n").join("");
}
