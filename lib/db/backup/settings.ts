import path from "node:path";
import { dataDir } from "../../paths";

export interface BackupSettings {
  dir: string;
  keep: number;
  /** The render cache folder, when backups include it. */
  renders?: string;
}

/**
 * Where the studio's backups go: `colbench serve` fixes them from its flags and leaves them in the
 * environment (COLBENCH_BACKUP_DIR, _KEEP, _RENDERS: the render folder when backups include it), where
 * the System page's bundled code reads them.
 */
export function backupSettings(flags?: { dir?: string; keep?: number; renders?: string }): BackupSettings {
  if (flags) {
    process.env.COLBENCH_BACKUP_DIR = path.resolve(
      /*turbopackIgnore: true*/ flags.dir ?? process.env.COLBENCH_BACKUP_DIR ?? path.join(dataDir(), "backups"),
    );
    process.env.COLBENCH_BACKUP_KEEP = String(flags.keep ?? 14);
    process.env.COLBENCH_BACKUP_RENDERS = flags.renders ?? "";
  }
  const keep = Number(process.env.COLBENCH_BACKUP_KEEP);
  return {
    dir: path.resolve(/*turbopackIgnore: true*/ process.env.COLBENCH_BACKUP_DIR ?? path.join(dataDir(), "backups")),
    keep: Number.isInteger(keep) && keep > 0 ? keep : 14,
    renders: process.env.COLBENCH_BACKUP_RENDERS || undefined,
  };
}
