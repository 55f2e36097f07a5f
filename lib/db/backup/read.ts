import fs from "node:fs";
import readline from "node:readline";
import zlib from "node:zlib";
import { FORMAT, VERSION, type BackupHeader, type EndLine, type FileLine, type SequenceLine, type TableLine } from "./format";

export type BackupLine =
  | { kind: "table"; line: TableLine }
  | { kind: "row"; table: string; values: Array<string | null> }
  | { kind: "sequence"; line: SequenceLine }
  | { kind: "file"; line: FileLine }
  | { kind: "end"; line: EndLine };

export class BackupFileError extends Error {}

/** The lines of a backup file after its header, each checked for its shape; line numbers in errors are the file's. */
export async function* readBackup(file: string): AsyncGenerator<BackupLine | { kind: "header"; line: BackupHeader }> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  let table: string | null = null;
  let ended = false;
  try {
    for await (const text of lines) {
      number++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new BackupFileError(`${file}, line ${number}: not JSON (the file is damaged)`);
      }
      if (ended) throw new BackupFileError(`${file}, line ${number}: data after the end line`);
      if (number === 1) {
        const header = value as BackupHeader;
        if (header?.format !== FORMAT) throw new BackupFileError(`${file}: not a colbench backup (line 1 has no "format": "${FORMAT}")`);
        if (header.version > VERSION) throw new BackupFileError(`${file}: backup format version ${header.version} is newer than this studio reads (${VERSION}): restore it with a newer studio`);
        if (!Array.isArray(header.migrations)) throw new BackupFileError(`${file}, line 1: field "migrations" is missing`);
        yield { kind: "header", line: header };
      } else if (Array.isArray(value)) {
        if (table === null) throw new BackupFileError(`${file}, line ${number}: a row before any table line`);
        yield { kind: "row", table, values: value as Array<string | null> };
      } else if (value && typeof value === "object" && "table" in value) {
        table = (value as TableLine).table;
        yield { kind: "table", line: value as TableLine };
      } else if (value && typeof value === "object" && "sequence" in value) {
        table = null;
        yield { kind: "sequence", line: value as SequenceLine };
      } else if (value && typeof value === "object" && "file" in value) {
        table = null;
        yield { kind: "file", line: value as FileLine };
      } else if (value && typeof value === "object" && "end" in value) {
        ended = true;
        yield { kind: "end", line: value as EndLine };
      } else {
        throw new BackupFileError(`${file}, line ${number}: a line of no known kind`);
      }
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(`${file}, after line ${number}: ${(error as Error).message} (the file is damaged or cut short)`);
  }
  if (number === 0) throw new BackupFileError(`${file}: empty`);
  if (!ended) throw new BackupFileError(`${file}: cut short after line ${number} (no end line): the backup did not finish writing`);
}

export interface BackupSummary {
  header: BackupHeader;
  end: EndLine;
  /** Rows counted in the file, per table; equal to end.rows in a whole file. */
  counted: Record<string, number>;
}

/** Reads the whole file once: its header, and that it is whole (its end line, rows as counted). */
export async function inspectBackup(file: string): Promise<BackupSummary> {
  let header: BackupHeader | undefined;
  let end: EndLine | undefined;
  const counted: Record<string, number> = {};
  for await (const item of readBackup(file)) {
    if (item.kind === "header") header = item.line;
    else if (item.kind === "table") counted[item.line.table] = 0;
    else if (item.kind === "row") counted[item.table]!++;
    else if (item.kind === "end") end = item.line;
  }
  for (const [table, rows] of Object.entries(end!.rows)) {
    if (counted[table] !== rows) throw new BackupFileError(`${file}: table ${table} holds ${counted[table] ?? 0} rows where its end line says ${rows}`);
  }
  return { header: header!, end: end!, counted };
}
