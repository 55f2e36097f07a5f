// The backup file: gzip-compressed JSON lines, written by the studio itself so that one file restores
// into either database (embedded PGlite, which is PostgreSQL 18, or a PostgreSQL 15+ server). pg_dump
// cannot be the format: Debian's pg_dump 15 refuses a server newer than itself, and PGlite's socket
// reports 18; PGlite's own dumpDataDir() tarball restores into PGlite only. `zcat FILE | head -1`
// shows what a file holds.
//
//   {"format":"colbench-backup","version":1,...}        the header (BackupHeader)
//   {"table":"Task","columns":[["id","integer"],...]}    a table, then its rows:
//   ["1","backend","…",null]                             one row: each column's text form or null
//   {"sequence":"Task_id_seq","value":"42","called":true}
//   {"file":"renders/ab/cd.png","data":"<base64>"}      with --with-renders
//   {"end":true,"rows":{"Task":12,…},"files":0}         written last: a file without it was cut short

export const FORMAT = "colbench-backup";
export const VERSION = 1;

export interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  /** When the snapshot was taken (the first statement of its transaction). */
  takenAt: string;
  /** pglite | postgresql, and the folder or the server's URL without its password. */
  source: { kind: string; location: string; serverVersion: string };
  /** Migrations the database had applied, in order: a restore rebuilds exactly that schema first. */
  migrations: string[];
}

export interface TableLine {
  table: string;
  /** Column name and its type as format_type() names it (casts the text form back on restore). */
  columns: Array<[string, string]>;
}

export interface SequenceLine {
  sequence: string;
  value: string;
  called: boolean;
}

export interface FileLine {
  file: string;
  data: string;
}

export interface EndLine {
  end: true;
  rows: Record<string, number>;
  files: number;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
