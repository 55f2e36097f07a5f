import { migrationNames } from "./migration-files";

/**
 * A database whose migrations include some this studio does not have was made (or last opened) by a
 * newer studio: its schema may hold columns and rules this code would break, so it is not opened.
 */
export class NewerDatabaseError extends Error {
  constructor(
    readonly where: string,
    readonly unknown: string[],
  ) {
    super(
      `${where} was migrated by a newer ColBench Studio: it has ${unknown.length} migration(s) this version does not know (${unknown.join(", ")}). ` +
        `Fix: run the newer studio (git checkout that version and npm ci), or restore a backup taken before the upgrade (npx colbench db restore FILE --into …).`,
    );
    this.name = "NewerDatabaseError";
  }
}

/** Names among `recorded` that are not migrations of this checkout. */
export function unknownMigrations(recorded: readonly string[]): string[] {
  const known = new Set(migrationNames());
  return recorded.filter((name) => !known.has(name));
}

export function refuseNewer(where: string, recorded: readonly string[]): void {
  const unknown = unknownMigrations(recorded);
  if (unknown.length) throw new NewerDatabaseError(where, unknown);
}
