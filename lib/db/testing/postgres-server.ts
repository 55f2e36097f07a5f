import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PG_BINARIES_FIX, findPgBinDir } from "../pg-binaries";

// A throwaway PostgreSQL cluster for tests: its own folder, its own port on 127.0.0.1,
// removed afterwards. Uses the server binaries the setup script installs (Debian's postgresql).

export interface PostgresServer {
  url: string;
  version: string;
  /** The folder of the server's Unix socket (\`.s.PGSQL.<port>\`), for clients that reach it without TCP. */
  socketDir: string;
  /** A URL for a fresh, empty database on this server. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server at once (`-m immediate`: clients lose their connections mid-query) and starts it again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function findBinDir(): string {
  const dir = findPgBinDir();
  if (!dir) throw new Error(`PostgreSQL server binaries (initdb, pg_ctl) not found: ${PG_BINARIES_FIX}`);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = findBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-pg-"));
  const dataDir = path.join(dir, "data");
  // PostgreSQL refuses to run as root; hand the cluster to the postgres user in that case.
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : path.join(bin, tool);
    const argv = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
    return execFileSync(command, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  };
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    execFileSync("chown", ["postgres:", dir]);
  }
  const port = await freePort();
  try {
    run("initdb", ["-D", dataDir, "-U", "colbench", "--auth=trust", "-E", "UTF8", "--no-locale"]);
    run("pg_ctl", [
      "-D",
      dataDir,
      "-w",
      "-t",
      "60",
      "-l",
      path.join(dir, "server.log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, "server.log"))
      ? fs.readFileSync(path.join(dir, "server.log"), "utf8")
      : "";
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL from ${bin}: ${(error as Error).message}\n${log}`);
  }
  const url = `postgresql://colbench@127.0.0.1:${port}/postgres`;
  const version = run("postgres", ["--version"]).trim();
  const { Client } = await import("pg");
  return {
    url,
    version,
    socketDir: dir,
    async createDatabase(name) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return `postgresql://colbench@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      run("pg_ctl", [
        "-D",
        dataDir,
        "-m",
        "immediate",
        "-w",
        "-t",
        "60",
        "-l",
        path.join(dir, "server.log"),
        "restart",
      ]);
    },
    async stop() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
