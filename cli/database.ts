import { openDatabase, type Database } from "../lib/db/open";
import { endedHere } from "../lib/runs/owner";
import { storeFor, type Store } from "../lib/store";

/** Opens the studio database for one CLI command and closes it however the command ends. */
export async function withDatabase<T>(command: string, use: (store: Store, db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ command: `colbench ${command}` });
  const close = () => db.close().catch(() => {});
  // A Ctrl-C mid-import must still close PGlite (when this command owns it), or its next start runs crash recovery.
  const onSignal = () => void close().then(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await use(await openStore(db), db);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await close();
  }
}

/**
 * The store of an opened database. On embedded PGlite every process is on this machine, so the
 * claims of processes that have ended lapse at once instead of when their 30-second lease runs out.
 */
export async function openStore(db: Database): Promise<Store> {
  const store = storeFor(db.prisma);
  if (db.kind === "pglite") await store.episodes.lapseClaimsOf((await store.episodes.claimHolders()).filter(endedHere));
  return store;
}
