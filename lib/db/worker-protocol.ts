// What the owner's thread and the database's worker thread say to each other (lib/db/pglite-host.ts,
// lib/db/pglite-worker.ts). Everything here crosses a MessagePort by structured clone.

/** How the worker opens the folder and serves it. */
export interface HostInit {
  /** The PGlite folder; absent: an in-memory database (tests). */
  dataDir?: string;
  password: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fail when `port` is taken instead of picking another (a take-over must serve at the same address). */
  strictPort?: boolean;
  idleInTransactionMs?: number;
  /** ANALYZE a while after start and then every so often (the folder's owner does; tests of the server do not). */
  statistics?: { firstAfterMs?: number; everyMs?: number } | false;
}

/** An array type and its element's type (PGlite parses arrays with its element's parser). */
export interface ArrayType {
  oid: number;
  typarray: number;
}

/** Rows as PostgreSQL sent them (text or null): the owner's thread applies the caller's parsers. */
export interface RawResult {
  rows: Array<Array<string | null>>;
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
  rowCount?: number;
  command?: string;
}

export type Request =
  | { op: "query"; sql: string; params: unknown[]; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "begin" }
  | { op: "commit"; tx: number }
  | { op: "rollback"; tx: number }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "notify"; channel: string; payload: string }
  | { op: "inTransaction" }
  | { op: "connections" }
  | { op: "close" };

/** An error as it crossed the port; `database` carries a PostgreSQL error's fields (code, detail, …). */
export interface WireError {
  message: string;
  name: string;
  stack?: string;
  code?: string;
  database?: Record<string, unknown>;
}

export type ToHost =
  | { kind: "ready"; port: number; arrays: ArrayType[] }
  | { kind: "failed"; error: WireError }
  | { kind: "reply"; id: number; value?: unknown }
  | { kind: "error"; id: number; error: WireError }
  | { kind: "notification"; channel: string; payload: string };

export type ToWorker = { id: number; request: Request };
