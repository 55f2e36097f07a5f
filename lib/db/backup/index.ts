// Backups of the studio database: `backupDatabase` (the one way to take one), the records the System
// page shows, scheduled backups, and restores. Pages import ./service (no database engines).
export * from "./service";
export { restoreBackup, RestoreRefused, type RestoreTarget, type RestoreResult } from "./restore";
export { inspectBackup, BackupFileError } from "./read";
export type { BackupResult } from "./write";
