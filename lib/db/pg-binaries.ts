import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// PostgreSQL's server programs (initdb, pg_ctl, postgres): the tests start throwaway clusters
// with them, and `colbench doctor` reports them. $COLBENCH_PG_BIN, else Debian's newest, else PATH.

export const PG_BINARIES_FIX = "run `npm run setup` (installs Debian's postgresql) or set COLBENCH_PG_BIN";

export function findPgBinDir(): string | undefined {
  const fromEnv = process.env.COLBENCH_PG_BIN;
  if (fromEnv && fs.existsSync(path.join(fromEnv, "initdb"))) return fromEnv;
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => fs.existsSync(path.join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  return undefined;
}
