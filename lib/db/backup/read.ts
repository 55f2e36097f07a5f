import path from "node:path";
import { gzipLines, LINE_LIMITS, LineLimitError, type LineLimits } from "./lines";
import {
  FORMAT,
  VERSION,
  type BackupHeader,
  type EndLine,
  type FileLine,
  type SequenceLine,
  type TableLine,
} from "./format";

export type BackupLine =
  | { kind: "table"; line: TableLine; number: number }
  | { kind: "row"; table: string; values: Array<string | null>; number: number }
  | { kind: "sequence"; line: SequenceLine; number: number }
  | { kind: "file"; line: FileLine; number: number }
  | { kind: "end"; line: EndLine; number: number };

export class BackupFileError extends Error {}

/** Rows in one file: far past any studio's, and a bound on what a crafted file can make a restore do. */
export const MAX_ROWS = 200_000_000;

/**
 * A column type as format_type() writes the types a studio's schema uses: a name of lowercase words or
 * one quoted identifier (an enum), a modifier such as (3), "with/without time zone", array brackets.
 * Anything else cannot have come from a studio, and is refused before a restore touches a database.
 */
const COLUMN_TYPE =
  /^(?:"[A-Za-z_][A-Za-z0-9_]*"|[a-z][a-z0-9_]*(?: [a-z][a-z0-9_]*)*)(?:\(\d{1,4}(?:,\d{1,4})?\))?(?: with(?:out)? time zone)?(?:\[\])*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The path of a render file below the render folder, or null when the name would leave it. */
export function renderPathOf(name: string): string | null {
  const relative = path.posix.normalize(name).replace(/^renders\//, "");
  if (
    !name.startsWith("renders/") ||
    relative.startsWith("..") ||
    path.posix.isAbsolute(relative) ||
    relative.includes("\0") ||
    relative === "."
  )
    return null;
  return relative;
}

function checkTable(where: string, value: Record<string, unknown>): TableLine {
  if (typeof value.table !== "string" || !NAME.test(value.table))
    throw new BackupFileError(`${where}: field "table" is not a table name`);
  if (!Array.isArray(value.columns) || value.columns.length === 0)
    throw new BackupFileError(`${where}: field "columns" of table ${value.table} is not a list of columns`);
  for (const column of value.columns as unknown[]) {
    if (
      !Array.isArray(column) ||
      column.length !== 2 ||
      typeof column[0] !== "string" ||
      typeof column[1] !== "string"
    ) {
      throw new BackupFileError(
        `${where}: field "columns" of table ${value.table} holds ${JSON.stringify(column).slice(0, 80)}, not [name, type]`,
      );
    }
    if (!NAME.test(column[0]))
      throw new BackupFileError(
        `${where}: table ${value.table} has a column named ${JSON.stringify(column[0].slice(0, 80))}, not a column name`,
      );
    if (!COLUMN_TYPE.test(column[1])) {
      throw new BackupFileError(
        `${where}: table ${value.table}, column ${column[0]}: the type ${JSON.stringify(column[1].slice(0, 120))} is not a column type a studio writes (refused before anything was restored)`,
      );
    }
  }
  return value as unknown as TableLine;
}

function checkRow(where: string, values: unknown[]): Array<string | null> {
  for (const value of values) {
    if (value !== null && typeof value !== "string")
      throw new BackupFileError(`${where}: a row holds ${typeof value}, where every value is text or null`);
  }
  return values as Array<string | null>;
}

function checkSequence(where: string, value: Record<string, unknown>): SequenceLine {
  if (typeof value.sequence !== "string" || !NAME.test(value.sequence))
    throw new BackupFileError(`${where}: field "sequence" is not a sequence name`);
  if (typeof value.value !== "string" || !/^-?\d{1,19}$/.test(value.value))
    throw new BackupFileError(`${where}: field "value" of sequence ${value.sequence} is not an integer`);
  if (typeof value.called !== "boolean")
    throw new BackupFileError(`${where}: field "called" of sequence ${value.sequence} is not true or false`);
  return value as unknown as SequenceLine;
}

function checkFile(where: string, value: Record<string, unknown>): FileLine {
  if (typeof value.file !== "string" || renderPathOf(value.file) === null) {
    throw new BackupFileError(
      `${where}: field "file" names ${JSON.stringify(String(value.file).slice(0, 120))}, outside the render folder`,
    );
  }
  if (typeof value.data !== "string" || !BASE64.test(value.data))
    throw new BackupFileError(`${where}: field "data" of ${value.file} is not base64`);
  return value as unknown as FileLine;
}

function checkEnd(where: string, value: Record<string, unknown>): EndLine {
  const rows = value.rows as Record<string, unknown> | undefined;
  if (
    !rows ||
    typeof rows !== "object" ||
    Object.values(rows).some((n) => !Number.isSafeInteger(n) || (n as number) < 0)
  ) {
    throw new BackupFileError(`${where}: field "rows" is not a count per table`);
  }
  if (!Number.isSafeInteger(value.files)) throw new BackupFileError(`${where}: field "files" is not a count`);
  return value as unknown as EndLine;
}

function checkHeader(file: string, value: unknown): BackupHeader {
  const header = value as BackupHeader;
  if (header?.format !== FORMAT)
    throw new BackupFileError(`${file}: not a colbench backup (line 1 has no "format": "${String(FORMAT)}")`);
  if (typeof header.version !== "number") throw new BackupFileError(`${file}, line 1: field "version" is not a number`);
  if (header.version > VERSION)
    throw new BackupFileError(
      `${file}: backup format version ${header.version} is newer than this studio reads (${VERSION}): restore it with a newer studio`,
    );
  if (!Array.isArray(header.migrations)) throw new BackupFileError(`${file}, line 1: field "migrations" is missing`);
  if (header.migrations.some((name) => typeof name !== "string" || !/^\d{14}_[a-z0-9_]+$/.test(name))) {
    throw new BackupFileError(`${file}, line 1: field "migrations" holds a name that is not a migration's`);
  }
  return header;
}

/** The lines of a backup file after its header, each checked for its shape; line numbers in errors are the file's. */
export async function* readBackup(
  file: string,
  limits: LineLimits = LINE_LIMITS,
): AsyncGenerator<BackupLine | { kind: "header"; line: BackupHeader; number: number }> {
  let number = 0;
  let table: string | null = null;
  let width = 0;
  const seen = new Set<string>();
  let ended = false;
  let rows = 0;
  try {
    for await (const [at, text] of gzipLines(file, limits)) {
      number = at;
      const where = `${file}, line ${number}`;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new BackupFileError(`${where}: not JSON (the file is damaged)`);
      }
      if (ended) throw new BackupFileError(`${where}: data after the end line`);
      if (number === 1) {
        yield { kind: "header", line: checkHeader(file, value), number };
      } else if (Array.isArray(value)) {
        if (table === null) throw new BackupFileError(`${where}: a row before any table line`);
        if (++rows > MAX_ROWS)
          throw new BackupFileError(`${where}: more than ${MAX_ROWS} rows, more than a restore takes`);
        if (value.length !== width)
          throw new BackupFileError(`${where}: a row of ${table} has ${value.length} values for ${width} columns`);
        yield { kind: "row", table, values: checkRow(where, value), number };
      } else if (value && typeof value === "object" && "table" in value) {
        const line = checkTable(where, value);
        if (seen.has(line.table)) throw new BackupFileError(`${where}: table ${line.table} appears a second time`);
        seen.add(line.table);
        table = line.table;
        width = line.columns.length;
        yield { kind: "table", line, number };
      } else if (value && typeof value === "object" && "sequence" in value) {
        table = null;
        yield { kind: "sequence", line: checkSequence(where, value), number };
      } else if (value && typeof value === "object" && "file" in value) {
        table = null;
        yield { kind: "file", line: checkFile(where, value), number };
      } else if (value && typeof value === "object" && "end" in value) {
        ended = true;
        yield { kind: "end", line: checkEnd(where, value), number };
      } else {
        throw new BackupFileError(`${where}: a line of no known kind`);
      }
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    if (error instanceof LineLimitError) throw new BackupFileError(`${file}: ${error.message}: refused`);
    throw new BackupFileError(
      `${file}, after line ${number}: ${(error as Error).message} (the file is damaged or cut short)`,
    );
  }
  if (number === 0) throw new BackupFileError(`${file}: empty`);
  if (!ended)
    throw new BackupFileError(
      `${file}: cut short after line ${number} (no end line): the backup did not finish writing`,
    );
}

export interface BackupSummary {
  header: BackupHeader;
  end: EndLine;
  /** Rows counted in the file, per table; equal to end.rows in a whole file. */
  counted: Record<string, number>;
}

/** Reads the whole file once: its header, and that it is whole (its end line, rows as counted). */
export async function inspectBackup(file: string, limits: LineLimits = LINE_LIMITS): Promise<BackupSummary> {
  let header: BackupHeader | undefined;
  let end: EndLine | undefined;
  const counted: Record<string, number> = {};
  for await (const item of readBackup(file, limits)) {
    if (item.kind === "header") header = item.line;
    else if (item.kind === "table") counted[item.line.table] = 0;
    else if (item.kind === "row") counted[item.table]!++;
    else if (item.kind === "end") end = item.line;
  }
  for (const [table, rows] of Object.entries(end!.rows)) {
    if (counted[table] !== rows)
      throw new BackupFileError(
        `${file}: table ${table} holds ${counted[table] ?? 0} rows where its end line says ${rows}`,
      );
  }
  return { header: header!, end: end!, counted };
}
