import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../paths";

// The migration files as the schema engine reads them. Kept apart from the engine so that code
// that only lists migrations (colbench doctor, the System page) never loads the WebAssembly.

export const schemaPath = path.join(projectRoot, "prisma", "schema.prisma");
export const migrationsDir = path.join(projectRoot, "prisma", "migrations");

export function readMigrations() {
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const dirs = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((dir) => {
      const file = path.join(migrationsDir, dir, "migration.sql");
      return {
        path: dir,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok" as const, value: fs.readFileSync(file, "utf8") }
            : { tag: "error" as const, value: `missing ${file}` },
        },
      };
    }),
  };
}

/** Names of the migration folders, in the order they apply. */
export function migrationNames(): string[] {
  return readMigrations().migrationDirectories.map((dir) => dir.path);
}
