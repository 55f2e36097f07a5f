import { spawnSync } from "node:child_process";
import path from "node:path";
import { PG_BINARIES_FIX, findPgBinDir } from "../db/pg-binaries";
import { part, type Part } from "./types";

/** The oldest Node.js the studio runs on (package.json's engines). */
export const MIN_NODE: [number, number] = [20, 9];

export function checkNode(version = process.versions.node): Part {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const fits = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return part({
    id: "node",
    name: "Node.js",
    status: fits ? "ok" : "missing",
    required: true,
    summary: `v${version} (the studio needs >= ${MIN_NODE.join(".")})`,
    fix: fits ? undefined : `install Node.js ${MIN_NODE.join(".")} or newer (e.g. from nodejs.org or NodeSource), then run \`npm run studio\` again`,
    details: { version, executable: process.execPath },
  });
}

/** PostgreSQL's server programs: the tests start throwaway clusters with them. */
export function checkPostgres(): Part {
  const dir = findPgBinDir();
  if (!dir) {
    return part({ id: "postgresql", name: "PostgreSQL binaries", status: "missing", required: false, summary: "initdb and pg_ctl not found (only `npm test` needs them)", fix: PG_BINARIES_FIX });
  }
  const run = spawnSync(path.join(dir, "postgres"), ["--version"], { encoding: "utf8", timeout: 10_000 });
  const version = /(\d+(?:\.\d+)*)/.exec(run.stdout ?? "")?.[1];
  return part({
    id: "postgresql",
    name: "PostgreSQL binaries",
    status: version ? "ok" : "degraded",
    required: false,
    summary: version ? `${version} in ${dir}` : `${dir} holds initdb, but \`postgres --version\` failed`,
    fix: version ? undefined : PG_BINARIES_FIX,
    details: { binDir: dir, version: version ?? null },
  });
}
