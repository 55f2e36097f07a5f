import { randomBytes } from "node:crypto";
import { SNAPSHOT_STATEMENT } from "../snapshot";

// Where a backup of the embedded database reads its rows: a copy of the folder the owner makes while
// holding its session for the copy alone (lib/db/snapshot.ts), opened here by a PGlite of this
// process's own and served on a socket of its own, so the backup's long read holds nobody's session.
// The copy lives as long as the connection that asked for it: the owner removes it when that ends.

export interface SnapshotSource {
  /** The copy's own postgresql:// URL, served by this process. */
  url: string;
  /** When the owner copied the folder. */
  takenAt: string;
  /** The copy (the owner's to remove). */
  folder: string;
  close(): Promise<void>;
}

/** PostgreSQL's "no such function" (an owner from before snapshots) and "not supported" (in memory). */
const NO_SNAPSHOT = new Set(["42883", "0A000"]);

/**
 * Asks the owner at `url` for a copy of its folder and opens it; null where the owner cannot make one
 * (an older studio, or an in-memory database), and the backup reads the owner's session as before.
 */
export async function openSnapshot(url: string): Promise<SnapshotSource | null> {
  const { default: pg } = await import("pg");
  const control = new pg.Client({ connectionString: url, application_name: "colbench backup (snapshot)" });
  await control.connect();
  let host: import("../pglite-host").PgliteHost | undefined;
  try {
    let answer;
    try {
      answer = await control.query<{ folder: string; taken_at: string }>(SNAPSHOT_STATEMENT);
    } catch (error) {
      if (NO_SNAPSHOT.has((error as { code?: string }).code ?? "")) {
        await control.end();
        return null;
      }
      throw error;
    }
    const { folder, taken_at: takenAt } = answer.rows[0]!;
    const { PgliteHost } = await import("../pglite-host");
    const password = randomBytes(18).toString("base64url");
    host = await PgliteHost.start({ dataDir: folder, password, statistics: false });
    const opened = host;
    return {
      url: `postgresql://colbench:${password}@127.0.0.1:${opened.address.port}/postgres`,
      takenAt,
      folder,
      async close() {
        // The copy is closed before the connection that keeps it ends (the owner then removes it).
        await opened.close().catch(() => {});
        await control.end().catch(() => {});
      },
    };
  } catch (error) {
    await host?.close().catch(() => {});
    await control.end().catch(() => {});
    throw error;
  }
}
