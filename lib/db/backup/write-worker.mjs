// A backup's own thread: plain JavaScript, so that it starts the same from the CLI, the studio's web
// bundle (which never loads the database engines itself) or Vitest; it compiles the TypeScript
// itself. Its priority is lowered first (Linux: per thread, and the threads it starts inherit it,
// the snapshot's PGlite among them): the people using the studio come before a backup.
import os from "node:os";
import { tsImport } from "tsx/esm/api";

try {
  os.setPriority(0, 10);
} catch {
  // Not allowed here: the backup runs at the studio's priority.
}
await tsImport("./write-worker.ts", import.meta.url);
