import { spawn } from "node:child_process";

export interface Ran {
  /** null when the program could not be started, or was killed at its deadline. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it gave no exit status: "not found", "killed after 20 s", … */
  failure?: string;
}

/**
 * A program run as a child process with a deadline, never blocking the caller's event loop: the
 * studio runs these checks in its server process, where a synchronous wait freezes every request.
 */
export function runProgram(
  command: string,
  args: string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<Ran> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (ran: Ran) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ran);
    };
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Output is only read for a version line or an error: keep the tail, never all of a chatty program's.
    child.stdout.on("data", (chunk: Buffer) => (stdout = (stdout + chunk.toString("utf8")).slice(-64_000)));
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-16_000)));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ code: null, stdout, stderr, failure: `killed after ${options.timeoutMs / 1000} s` });
    }, options.timeoutMs);
    child.once("error", (error: NodeJS.ErrnoException) =>
      finish({ code: null, stdout, stderr, failure: error.code === "ENOENT" ? "not found" : error.message }),
    );
    child.once("close", (code, signal) =>
      finish({ code, stdout, stderr, failure: code === null ? `killed by ${signal}` : undefined }),
    );
  });
}

/** Settles as `fallback` does (its value, or what it throws) when `promise` takes longer than `ms`, so one hung probe cannot hold the report. */
export function within<T>(promise: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  }).then(fallback);
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
