import { Command } from "commander";
import path from "node:path";
import { withDatabase } from "../database";
import { action, fail } from "../errors";
import { openDatabase } from "../../lib/db/open";
import {
  backupDatabase,
  recordBackup,
  recordOf,
  restoreBackup,
  RestoreRefused,
  BackupFileError,
} from "../../lib/db/backup";
import { NewerDatabaseError } from "../../lib/db/versions";
import { dataDir } from "../../lib/paths";
import { defaultRenderDir } from "../../lib/scoring/frontend/render-cache";

export function register(program: Command): void {
  const db = program.command("db").description("manage the studio database");
  db.command("migrate")
    .description("apply pending migrations (the studio also does this at start)")
    .action(
      action(async () => {
        await withDatabase("db migrate", async (_store, database) => {
          const applied = database.applied;
          console.log(
            applied.length
              ? `applied ${applied.length} migration(s) to ${database.kind} at ${database.location}: ${applied.join(", ")}`
              : `${database.kind} at ${database.location} is up to date`,
          );
        });
      }),
    );
  db.command("seed")
    .description("load the project's sample tasks into an empty database (the studio does this at first start)")
    .action(
      action(async () => {
        await withDatabase("db seed", async (store) => {
          const seeded = await store.tasks.seedSamplesIfEmpty();
          console.log(
            seeded.length
              ? `seeded ${seeded.reduce((n, s) => n + s.inserted, 0)} sample tasks`
              : "the database already has tasks; nothing seeded",
          );
        });
      }),
    );
  db.command("backup")
    .description(
      "write a consistent snapshot of the database to FILE while the studio serves (gzip JSON lines; restores into PGlite or PostgreSQL)",
    )
    .argument("<file>", "where to write it (written as FILE.partial, renamed when complete)")
    .option("--with-renders", "include the render cache (<data dir>/renders)")
    .action(
      action(async (file: string, opts: { withRenders?: boolean }) => {
        // Read as it is: a backup does not migrate. On the embedded database this process is the
        // owner's client (or the owner, when nothing else has the folder open).
        const db = await openDatabase({ command: "colbench db backup", migrate: false }).catch(explain);
        try {
          const result = await backupDatabase(db, file, { renders: opts.withRenders ? defaultRenderDir() : undefined });
          recordBackup(dataDir(), recordOf(result, "colbench db backup"));
          const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
          console.log(
            `backup of ${db.kind} ${db.location} as of ${result.takenAt} written to ${result.file}: ${rows} rows in ${Object.keys(result.rows).length} tables` +
              (opts.withRenders ? `, ${result.files} render files` : "") +
              `, ${(result.bytes / 1e6).toFixed(2)} MB, schema at ${result.migrations.at(-1) ?? "(no migrations)"}`,
          );
        } finally {
          await db.close();
        }
      }),
    );
  db.command("restore")
    .description(
      "restore a backup into a new data folder (--into DIR) or an empty PostgreSQL database (--into postgresql://…, or DATABASE_URL)",
    )
    .argument("<file>", "a file written by `colbench db backup`")
    .option(
      "--into <target>",
      "a data folder (the database goes to DIR/db, renders to DIR/renders) or a postgresql:// URL; default: DATABASE_URL",
    )
    .option("--force", "replace what the target holds")
    .option("--renders <dir>", "where the backup's renders go (default DIR/renders for a folder; none for a URL)")
    .action(
      action(async (file: string, opts: { into?: string; force?: boolean; renders?: string }) => {
        const into = opts.into ?? process.env.DATABASE_URL;
        if (!into)
          fail(
            "colbench db restore: say where: --into DIR (a new data folder) or --into postgresql://… (or set DATABASE_URL)",
          );
        const target = /^postgres(ql)?:\/\//.test(into) ? { url: into } : { folder: path.resolve(into) };
        try {
          const result = await restoreBackup(path.resolve(file), target, { force: opts.force, renders: opts.renders });
          const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
          console.log(
            `restored ${rows} rows in ${Object.keys(result.rows).length} tables (backup of ${result.header.source.kind} as of ${result.header.takenAt}) into ${result.location}` +
              (result.files ? `, ${result.files} render files` : "") +
              (result.upgraded.length ? `; then migrated: ${result.upgraded.join(", ")}` : ""),
          );
        } catch (error) {
          if (
            error instanceof RestoreRefused ||
            error instanceof BackupFileError ||
            error instanceof NewerDatabaseError
          )
            fail(`colbench db restore: ${error.message}`);
          throw error;
        }
      }),
    );
}

function explain(error: Error): never {
  if (error instanceof NewerDatabaseError) fail(error.message);
  throw error;
}
