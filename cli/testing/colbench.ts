import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { projectRoot } from "../../lib/paths";

// The real `colbench` binary as tests run it: on a data folder of their own, never a DATABASE_URL
// from the environment. Asynchronous on purpose: a scripted model server in the test's own process
// must keep answering while the command runs.

export const colbenchBin = path.join(projectRoot, "cli", "bin.mjs");

export interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runColbench(
  dataDir: string,
  args: string[],
  options: { killAfterMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<Outcome> {
  const child = spawn(process.execPath, [colbenchBin, ...args], {
    cwd: projectRoot,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  if (options.killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
  return new Promise((resolve) => child.once("exit", (status) => resolve({ status, stdout, stderr })));
}

/** The JSON summary a command prints as its last line. */
export function lastJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

/** A long-running `colbench` process (a worker, a studio-less run) the test stops or kills itself. */
export interface ColbenchProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves once its output contains `text`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function spawnColbench(
  dataDir: string,
  args: string[],
  options: { env?: Record<string, string | undefined> } = {},
): ColbenchProcess {
  const child = spawn(process.execPath, [colbenchBin, ...args], {
    cwd: projectRoot,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const seen = () => (typeof text === "string" ? output.includes(text) : text.test(output));
      while (!seen()) {
        if (child.exitCode !== null)
          throw new Error(`colbench ${args[0]} exited (${child.exitCode}) before printing ${text}:\n${output}`);
        if (Date.now() > deadline)
          throw new Error(`colbench ${args[0]} did not print ${text} in ${timeoutMs} ms:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
