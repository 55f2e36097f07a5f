import fs from "node:fs/promises";
import path from "node:path";
import { PG_BINARIES_FIX } from "../db/pg-binaries";
import { runProgram } from "./proc";
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
    fix: fits
      ? undefined
      : `install Node.js ${MIN_NODE.join(".")} or newer (e.g. from nodejs.org or NodeSource), then run \`npm run studio\` again`,
    details: { version, executable: process.execPath },
  });
}

const hasInitdb = (dir: string) =>
  fs.access(path.join(/*turbopackIgnore: true*/ dir, "initdb")).then(
    () => true,
    () => false,
  );

/** findPgBinDir's search (COLBENCH_PG_BIN, Debian's newest, PATH) without its synchronous `sh` for the server's checks. */
async function pgBinDir(): Promise<string | undefined> {
  const fromEnv = process.env.COLBENCH_PG_BIN;
  if (fromEnv && (await hasInitdb(fromEnv))) return fromEnv;
  const debian = "/usr/lib/postgresql";
  const versions = await fs.readdir(debian).catch(() => [] as string[]);
  const installed: string[] = [];
  for (const version of versions) if (await hasInitdb(path.join(debian, version, "bin"))) installed.push(version);
  const newest = installed.sort((a, b) => Number(b) - Number(a))[0];
  if (newest) return path.join(debian, newest, "bin");
  const which = await runProgram("sh", ["-c", "command -v initdb"], { timeoutMs: 5_000 });
  return which.code === 0 && which.stdout.trim() ? path.dirname(which.stdout.trim()) : undefined;
}

/** PostgreSQL's server programs: the tests start throwaway clusters with them. */
export async function checkPostgres(): Promise<Part> {
  const dir = await pgBinDir();
  if (!dir) {
    return part({
      id: "postgresql",
      name: "PostgreSQL binaries",
      status: "missing",
      required: false,
      summary: "initdb and pg_ctl not found (only `npm test` needs them)",
      fix: PG_BINARIES_FIX,
    });
  }
  const run = await runProgram(path.join(dir, "postgres"), ["--version"], { timeoutMs: 10_000 });
  const version = /(\d+(?:\.\d+)*)/.exec(run.stdout)?.[1];
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
