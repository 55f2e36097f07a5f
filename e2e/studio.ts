import { spawn, type ChildProcess } from "node:child_process";
import { STUDIO_NODE_FLAGS } from "../cli/node-flags";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres } from "../lib/db/testing/postgres-server";

export interface RunningStudio {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const root = path.resolve(import.meta.dirname, "..");

/** Starts the built studio (`colbench serve`) on a fresh data folder and waits until it answers. */
export async function startStudio(
  port: number,
  dataDir?: string,
  env: Record<string, string> = {},
): Promise<RunningStudio> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-"));
  // COLBENCH_STUDIO_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the studio a bench drives
  // (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.COLBENCH_STUDIO_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(
    process.execPath,
    [...STUDIO_NODE_FLAGS, ...nodeArgs, path.join(root, "cli", "bin.mjs"), "serve", "--port", String(port)],
    {
      cwd: root,
      env: { ...process.env, COLBENCH_DATA: dir, DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout?.on("data", (chunk) => (log += chunk));
  child.stderr?.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`studio exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`studio did not answer within 90 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    dataDir: dir,
    process: child,
    output: () => log,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

export interface PostgresStudio extends RunningStudio {
  /** The database's URL, for the other processes a spec starts beside the studio. */
  databaseUrl: string;
}

/**
 * The built studio on a database of its own throwaway PostgreSQL server (specs where other
 * processes share the studio's database); `stop` stops both and gives the studio's exit code.
 */
export async function startStudioOnPostgres(port: number, database: string): Promise<PostgresStudio> {
  const postgres = await startPostgres();
  try {
    const databaseUrl = await postgres.createDatabase(database);
    const studio = await startStudio(port, undefined, { DATABASE_URL: databaseUrl });
    return {
      ...studio,
      databaseUrl,
      async stop(signal) {
        try {
          return await studio.stop(signal);
        } finally {
          await postgres.stop();
        }
      },
    };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}
