import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../open";
import { startPostgres, type PostgresServer } from "./postgres-server";

export interface DatabaseBackend {
  label: "pglite" | "postgresql";
  /** A plain function (no `this`): tests take it out of the backend with `({ open }) => …`. */
  open: () => Promise<Database>;
}

/**
 * The two databases a store test runs once each on (`describe.each(backends)`): embedded PGlite in a
 * scratch folder, and a throwaway PostgreSQL cluster started on first use. `cleanup` (for afterAll)
 * stops the cluster and removes the folder; `dir` is there for the test's other scratch files.
 */
export function databaseBackends(name: string): {
  backends: DatabaseBackend[];
  dir: string;
  cleanup: () => Promise<void>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `colbench-${name}-`));
  let server: PostgresServer | undefined;
  return {
    dir,
    backends: [
      { label: "pglite", open: () => openDatabase({ pgliteDir: path.join(dir, "db"), url: "" }) },
      {
        label: "postgresql",
        open: async () =>
          openDatabase({
            url: await (server ??= await startPostgres()).createDatabase(`${name.replace(/\W/g, "_")}_${process.pid}`),
          }),
      },
    ],
    cleanup: async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
